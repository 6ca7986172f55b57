// The text parsers without a server: text the server refuses because a
// character is not ASCII, a look-alike that Unicode case mapping or digit
// tables turn into a digit or letter of the alphabet (issue 51). The server
// reads bytes: only ASCII digits and letters are digits (src/core/base32.cpp,
// base36.cpp, prefixed.cpp). The same cases, in the same order and spelling,
// are in every client's offline tests until the shared vectors file holds
// them (test/data/id_vectors.json, issue 52).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as idgen from 'idgen';

// [family, text, what]: the look-alike in a valid ID (the bits of
// docs/internals.md's binary example)
const NOT_ASCII = [
  ['ulid', '01H455VB4PEX5VS\u212aNK084SN02Q', 'U+212A KELVIN SIGN for K'],
  ['ulid', '01H455VB4PEX5V\u017fKNK084SN02Q', 'U+017F LATIN SMALL LETTER LONG S (uppercases to S) for S'],
  ['ulid', '0\u0131H455VB4PEX5VSKNK084SN02Q', 'U+0131 LATIN SMALL LETTER DOTLESS I (uppercases to I, an alias of 1) for 1'],
  ['ulid', '0\u0130H455VB4PEX5VSKNK084SN02Q', 'U+0130 LATIN CAPITAL LETTER I WITH DOT ABOVE (lowercases to i) for 1'],
  ['ulid', '01H\uff1455VB4PEX5VSKNK084SN02Q', 'U+FF14 FULLWIDTH DIGIT FOUR for 4'],
  ['ulid', '01H455VB4PEX5VSKNK084SN02\uff31', 'U+FF31 FULLWIDTH LATIN CAPITAL LETTER Q for Q'],
  ['ulid', '01H\u066455VB4PEX5VSKNK084SN02Q', 'U+0664 ARABIC-INDIC DIGIT FOUR for 4'],
  ['prefixed_id', 'acct_039sr\u212aj01e44uynszf2f2njh3', 'U+212A KELVIN SIGN for k'],
  ['prefixed_id', 'acct_039\u017frkj01e44uynszf2f2njh3', 'U+017F LATIN SMALL LETTER LONG S (uppercases to S) for s'],
  ['prefixed_id', 'acct_039srkj01e44\u0131ynszf2f2njh3', 'U+0131 LATIN SMALL LETTER DOTLESS I (uppercases to I) for u'],
  ['prefixed_id', 'acct_039srkj01e44\u0130ynszf2f2njh3', 'U+0130 LATIN CAPITAL LETTER I WITH DOT ABOVE (lowercases to i) for u'],
  ['prefixed_id', 'acct_\uff1039srkj01e44uynszf2f2njh3', 'U+FF10 FULLWIDTH DIGIT ZERO for 0'],
  ['prefixed_id', 'acct_039srkj01e44uynszf2f2nj\uff483', 'U+FF48 FULLWIDTH LATIN SMALL LETTER H for h'],
  ['prefixed_id', 'acct_\u066039srkj01e44uynszf2f2njh3', 'U+0660 ARABIC-INDIC DIGIT ZERO for 0'],
  ['prefixed_id', 'acct_\u096639srkj01e44uynszf2f2njh3', 'U+0966 DEVANAGARI DIGIT ZERO for 0'],
  ['prefixed_id', 'tas\u212a_039srkj01e44uynszf2f2njh3', 'U+212A KELVIN SIGN for k in the prefix'],
  ['prefixed_id', 'ta\u017fk_039srkj01e44uynszf2f2njh3', 'U+017F LATIN SMALL LETTER LONG S for s in the prefix'],
  ['prefixed_id', '\u0131tem_039srkj01e44uynszf2f2njh3', 'U+0131 LATIN SMALL LETTER DOTLESS I for i in the prefix'],
  ['prefixed_id', '\u0130tem_039srkj01e44uynszf2f2njh3', 'U+0130 LATIN CAPITAL LETTER I WITH DOT ABOVE for i in the prefix'],
  ['prefixed_id', '\uff41cct_039srkj01e44uynszf2f2njh3', 'U+FF41 FULLWIDTH LATIN SMALL LETTER A for a in the prefix'],
  ['typeid', 'prefix_01h455vb4pex5vs\u212ank084sn02q', 'U+212A KELVIN SIGN (lowercases to k) for k'],
  ['typeid', 'prefix_01h455vb4pex5v\u017fknk084sn02q', 'U+017F LATIN SMALL LETTER LONG S for s'],
  ['typeid', 'prefix_0\u0131h455vb4pex5vsknk084sn02q', 'U+0131 LATIN SMALL LETTER DOTLESS I (an alias of 1) for 1'],
  ['typeid', 'prefix_01h\uff1455vb4pex5vsknk084sn02q', 'U+FF14 FULLWIDTH DIGIT FOUR for 4'],
  ['typeid', 'prefix_01h455vb4pex5vsknk084sn02\uff51', 'U+FF51 FULLWIDTH LATIN SMALL LETTER Q for q'],
  ['typeid', 'prefix_01h\u066455vb4pex5vsknk084sn02q', 'U+0664 ARABIC-INDIC DIGIT FOUR for 4'],
  ['typeid', '01h455vb4pex5vs\u212ank084sn02q', 'U+212A KELVIN SIGN for k without a prefix'],
  ['typeid', 'pref\u0131x_01h455vb4pex5vsknk084sn02q', 'U+0131 LATIN SMALL LETTER DOTLESS I for i in the prefix'],
  ['typeid', 'pref\u0130x_01h455vb4pex5vsknk084sn02q', 'U+0130 LATIN CAPITAL LETTER I WITH DOT ABOVE for i in the prefix'],
  ['typeid', 'tas\u212a_01h455vb4pex5vsknk084sn02q', 'U+212A KELVIN SIGN for k in the prefix'],
  ['uuid', '\uff101890a5d-ac96-774b-bcce-b302099a8057', 'U+FF10 FULLWIDTH DIGIT ZERO for 0'],
  ['uuid', '01890\uff415d-ac96-774b-bcce-b302099a8057', 'U+FF41 FULLWIDTH LATIN SMALL LETTER A for a'],
  ['uuid', '\u06601890a5d-ac96-774b-bcce-b302099a8057', 'U+0660 ARABIC-INDIC DIGIT ZERO for 0'],
  ['snowflake', '900719925474099\uff12', 'U+FF12 FULLWIDTH DIGIT TWO for 2'],
  ['snowflake', '\u0669007199254740992', 'U+0669 ARABIC-INDIC DIGIT NINE for 9'],
];

// Each family's parsers of text in this package.
const PARSERS = {
  ulid: [idgen.ulidToUuid, idgen.ulidTime, idgen.ulidCanonical],
  prefixed_id: [idgen.prefixedIdParse, idgen.prefixedIdTime],
  typeid: [idgen.typeidParse, idgen.typeidTime],
  uuid: [idgen.uuidToBigInt, idgen.uuidV7Time, idgen.uuidToUlid],
  snowflake: [idgen.snowflakeTime, idgen.snowflakeShard, idgen.snowflakeSeq],
};

// The text with each non-ASCII character as U+XXXX, for messages.
const shown = (text) => text.replace(/[^\x20-\x7e]/g, (c) => `<U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}>`);

describe('the text parsers refuse non-ASCII look-alikes, as the server does', () => {
  for (const [family, text, what] of NOT_ASCII) {
    test(`${family}: ${what}`, () => {
      for (const parse of PARSERS[family]) {
        assert.throws(() => parse(text), (e) => e instanceof TypeError || e instanceof RangeError,
          `${parse.name}("${shown(text)}") must throw`);
      }
    });
  }
  test('the ASCII forms of the same IDs parse (each case differs from one of them by its look-alike)', () => {
    assert.equal(idgen.ulidToUuid('01H455VB4PEX5VSKNK084SN02Q'), '01890a5d-ac96-774b-bcce-b302099a8057');
    assert.equal(idgen.prefixedIdParse('acct_039srkj01e44uynszf2f2njh3').uuid, '01890a5d-ac96-774b-bcce-b302099a8057');
    assert.equal(idgen.prefixedIdParse('task_039SRKJ01E44UYNSZF2F2NJH3').prefix, 'task');
    assert.equal(idgen.typeidParse('prefix_01h455vb4pex5vsknk084sn02q').uuid, '01890a5d-ac96-774b-bcce-b302099a8057');
    assert.equal(idgen.uuidToBigInt('01890a5d-ac96-774b-bcce-b302099a8057'), 0x01890a5dac96774bbcceb302099a8057n);
    assert.equal(idgen.snowflakeSeq('9007199254740992'), 0);
  });
});
