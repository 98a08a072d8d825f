// Adds one problem code to openapi/components/schemas/ErrorCode.yaml (enum and table), keeping both in step.
// Usage: node scripts/spec/add-error-code.mjs <code> <status> "<meaning>"
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const [code, status, meaning] = process.argv.slice(2);
if (!code || !/^[a-z][a-z0-9_]*$/.test(code) || !/^\d{3}$/.test(status ?? '') || !meaning) {
  console.error('usage: add-error-code.mjs <snake_code> <status> "<meaning>"');
  process.exit(2);
}
const file = fileURLToPath(new URL('../../openapi/components/schemas/ErrorCode.yaml', import.meta.url));
const text = readFileSync(file, 'utf8');
if (text.includes(`\n  - ${code}\n`)) {
  console.log(`${code} is listed already`);
  process.exit(0);
}
const withRow = text.replace(/\nenum:\n/, `\n  | \`${code}\` | ${status} | ${meaning} |\nenum:\n`);
const withEnum = withRow.replace(/\nexamples:/, `\n  - ${code}\nexamples:`);
writeFileSync(file, withEnum);
console.log(`added ${code}`);
