/** Where the tests find the project, ../shared and the fixtures (shared with the bench). */
import * as path from 'path';
import { projectRoot } from '../../dev/project-paths';

export { loadConformance, projectRoot, sharedDir } from '../../dev/project-paths';

export const fixturesDir = path.join(projectRoot, 'test-fixtures');
