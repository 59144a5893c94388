#!/usr/bin/env bash
# Refreshes the README's screenshots (images/screenshot-*.png) from the last
# `npm run test:e2e` run (client/out-test/screenshots/): each cropped out of the 1280×760
# workbench and reduced to 256 colours. Needs ImageMagick.
#   hover, quick-fix          the demo (test-fixtures/demo): the editor and Problems panel
#   real-*                    the kochhaus-home cut (test-fixtures/real-repo/kochhaus-home),
#                             with the side bar closed: the editor, down to the widget's end
set -euo pipefail
cd "$(dirname "$0")/../.."
crop() { # name geometry
  /usr/bin/convert "client/out-test/screenshots/$1.png" -crop "$2" +repage \
    -strip -dither None -colors 256 "PNG8:images/screenshot-$1.png"
}
crop hover 932x700+348+30
crop quick-fix 932x700+348+30
crop real-hover 1232x410+48+30
crop real-silent-default 1232x500+48+30
crop real-clusters 1232x420+48+30
ls -l images/screenshot-*.png
