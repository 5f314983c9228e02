#!/usr/bin/env bash
# Generates a D1 migration from the drizzle schema (src/db/schema/*.ts). Serialized with flock so
# parallel contributors never produce two migrations with the same number.
# Usage: npm run db:generate -- <name>
set -euo pipefail
cd "$(dirname "$0")/.."
name="${1:-change}"
exec 9>/tmp/berth-db-generate.lock
flock 9
npx drizzle-kit generate --name "$name" < /dev/null
