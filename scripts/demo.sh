#!/usr/bin/env bash
# make demo: a small offline pipeline until simweb lands (issue 9).
set -euo pipefail
cd "$(dirname "$0")/.."
printf 'HTTP://Example.COM:80/a/../b#x\nhttps://www.forestry.gov.cn/\nhttps://www.forestry.gov.cn/#top\n' | bin/seed urls
