// The extension's vectors file, test/data/id_vectors.json (docs/development.md
// of the extension): every family's layout and its valid and refused cases,
// as the C++ cores answer them. run.sh copies it into the test project
// (id_vectors.json beside package.json); run in place, the project is
// clients/node/test and the file ../../../test/data/id_vectors.json from it.
// IDGEN_VECTORS names another copy.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const project = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const file = process.env.IDGEN_VECTORS
  ?? [path.join(project, 'id_vectors.json'), path.join(project, '../../../test/data/id_vectors.json')].find((p) => fs.existsSync(p));
if (!file) throw new Error(`no id_vectors.json in ${project} or the checkout above it (set IDGEN_VECTORS)`);

export const VECTORS = JSON.parse(fs.readFileSync(file, 'utf8'));
export const FAMILIES = VECTORS.families;

// cases(family, form, { ok, notAscii }): a form's cases, those with the given
// ok and not_ascii (undefined: either).
export function cases(family, form, { ok, notAscii } = {}) {
  return FAMILIES[family].cases[form].filter((c) => (ok === undefined || (c.ok ?? true) === ok)
    && (notAscii === undefined || (c.not_ascii ?? false) === notAscii));
}

// The bit widths of a family's fields, from the most significant.
export const widths = (family) => FAMILIES[family].fields.map((f) => f.bits);

// The uuid text of 32 hex digits.
export const uuidOf = (hex) => `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
