/** moveNode moves a node's range by the same amount whatever state its range array is in (fast-nodes.ts). */
import * as assert from 'assert/strict';
import { Scalar, isScalar } from 'yaml';
import { moveNode, plainScalar, stringScalar } from '../core/yaml/fast-nodes';

suite('moveNode', () => {
  test('a fast scalar moves the same with its range array made before, after or set', () => {
    const made = () => [stringScalar('v', 'QUOTE_DOUBLE', 10, 13, 14), plainScalar('text', 10, 13, 14), plainScalar('42', 10, 13, 14), plainScalar('true', 10, 13, 14), plainScalar('', 10, 13, 14)];
    for (const state of ['never read', 'read before', 'set before', 'cloned']) {
      for (const node of made()) {
        assert.ok(isScalar(node));
        let moved: Scalar = node;
        if (state === 'read before') void node.range;
        if (state === 'set before') node.range = [10, 13, 14];
        if (state === 'cloned') moved = node.clone() as Scalar;
        moveNode(moved, 5);
        moveNode(moved, -2);
        assert.deepEqual(moved.range, [13, 16, 17], `${state}: ${String(node.source)}`);
        // A move after the array was made moves that array.
        const array = moved.range!;
        moveNode(moved, 1);
        assert.equal(moved.range, array, state);
        assert.deepEqual(array, [14, 17, 18], state);
        if (state === 'cloned') assert.deepEqual(node.range, [10, 13, 14], 'the original stays');
      }
    }
  });
});
