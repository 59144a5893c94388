#!/usr/bin/env bash
# Draws images/icon.png (128×128, the Marketplace icon): a lens over `${}` on a rounded
# blue square. Needs ImageMagick 6 from Debian (`apt-get install -y imagemagick`).
set -euo pipefail
cd "$(dirname "$0")"
C=/usr/bin/convert
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
# Drawn at 512 px and scaled down, for clean anti-aliased edges.
$C -size 512x512 gradient:'#1d6fa5'-'#0a2f4a' "$tmp/gradient.png"
$C -size 512x512 xc:none -fill white -draw "roundrectangle 8,8 503,503 104,104" "$tmp/mask.png"
$C "$tmp/gradient.png" "$tmp/mask.png" -alpha off -compose CopyOpacity -composite "$tmp/background.png"
$C "$tmp/background.png" \
  -stroke '#0a2f4a' -strokewidth 70 -draw "line 330,330 428,428" \
  -stroke '#e8f1f8' -strokewidth 54 -draw "line 330,330 428,428" \
  -fill '#0d3e60' -stroke '#e8f1f8' -strokewidth 34 -draw "circle 222,222 222,84" \
  -stroke none -fill '#ffb62e' -font DejaVu-Sans-Mono-Bold -pointsize 118 -gravity NorthWest -annotate +113+148 '${}' \
  "$tmp/icon512.png"
$C "$tmp/icon512.png" -resize 128x128 -strip PNG32:icon.png
