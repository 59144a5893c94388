/** Where the tests find the project, the conformance vectors and the fixtures (shared with the bench). */
import * as path from 'path';
import { projectRoot } from '../../dev/project-paths';

export { loadConformance, projectRoot, conformanceDir } from '../../dev/project-paths';

export const fixturesDir = path.join(projectRoot, 'test-fixtures');
