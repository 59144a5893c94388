/** file:line references in hovers become links that open the file at the line, whatever its name. */
import * as assert from 'assert/strict';
import { pathToFileURL } from 'url';
import { fileLineLink } from '../core/links';
import { absoluteLinks } from '../lsp/convert';

suite('file:line links', () => {
  test('the core writes a relative link; the LSP layer points it at the file URI, the line as #L', () => {
    const uriOf = (file: string) => pathToFileURL(`/repo/${file}`).toString();
    const markdown = `from ConfigMap vars — ${fileLineLink('clusters/prod/vars.yaml', 7)}`;
    assert.equal(markdown, 'from ConfigMap vars — [clusters/prod/vars.yaml:7](clusters/prod/vars.yaml#L7)');
    assert.equal(absoluteLinks(markdown, uriOf), 'from ConfigMap vars — [clusters/prod/vars.yaml:7](file:///repo/clusters/prod/vars.yaml#L7)');
  });

  test('names with spaces, parentheses and brackets survive the round trip', () => {
    const seen: string[] = [];
    const linked = absoluteLinks(fileLineLink('odd dir/a (copy)[1].yaml', 3), (file) => (seen.push(file), pathToFileURL(`/repo/${file}`).toString()));
    assert.deepEqual(seen, ['odd dir/a (copy)[1].yaml']);
    assert.equal(linked, '[odd dir/a (copy)\\[1\\].yaml:3](file:///repo/odd%20dir/a%20%28copy%29%5B1%5D.yaml#L3)');
  });

  test('links that already have a scheme are left alone', () => {
    const text = '[docs](https://example.com/x#L3) [f](file:///x.yaml#L2)';
    assert.equal(absoluteLinks(text, () => 'never'), text);
  });
});
