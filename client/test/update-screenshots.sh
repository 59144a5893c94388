#!/usr/bin/env bash
# Refreshes the README's screenshots (images/screenshot-*.png) from the last
# `npm run test:e2e` run (client/out-test/screenshots/): the editor and Problems panel,
# cropped out of the 1280×760 workbench and reduced to 256 colours. Needs ImageMagick.
set -euo pipefail
cd "$(dirname "$0")/../.."
for name in hover quick-fix; do
  /usr/bin/convert "client/out-test/screenshots/$name.png" -crop 932x700+348+30 +repage \
    -strip -dither None -colors 256 "PNG8:images/screenshot-$name.png"
done
ls -l images/screenshot-*.png
