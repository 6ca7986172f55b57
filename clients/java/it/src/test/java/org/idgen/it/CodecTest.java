package org.idgen.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.sql.SQLException;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import org.idgen.PrefixedId;
import org.idgen.TypeId;
import org.idgen.Ulid;
import org.junit.jupiter.api.Test;

/**
 * The value classes alone, without a server: the specifications' vectors and the binary forms.
 * (test/setup.sh runs this class alone to fetch Surefire's JUnit provider.)
 */
class CodecTest
{
	@Test
	void ulidSpecificationVector()
	{
		Ulid u = Ulid.parse("01ARZ3NDEKTSV4RRFFQ69G5FAV");
		assertEquals(UUID.fromString("01563e3a-b5d3-d676-4c61-efb99302bd5b"), u.toUuid());
		assertEquals(0x01563e3ab5d3L, u.time().toEpochMilli(), "the first 48 bits");
	}

	@Test
	void typeIdSpecificationVectors()
	{
		assertEquals(new UUID(0, 0), TypeId.parse("00000000000000000000000000").toUuid());
		TypeId t = TypeId.parse("prefix_01h455vb4pex5vsknk084sn02q");
		assertEquals("prefix", t.prefix());
		assertEquals(UUID.fromString("01890a5d-ac96-774b-bcce-b302099a8057"), t.toUuid());
	}

	@Test
	void binaryFormsRoundTrip() throws SQLException
	{
		Ulid u = Ulid.parse("01ARZ3NDEKTSV4RRFFQ69G5FAV");
		byte[] ub = new byte[u.lengthInBytes()];
		u.toBytes(ub, 0);
		Ulid u2 = new Ulid();
		u2.setByteValue(ub, 0);
		assertEquals(u, u2);
		PrefixedId p = PrefixedId.of("acct", UUID.fromString("01563e3a-b5d3-d676-4c61-efb99302bd5b"));
		byte[] pb = new byte[p.lengthInBytes()];
		p.toBytes(pb, 0);
		assertEquals(1 + 4 + 16, pb.length);
		assertArrayEquals(new byte[] {4, 'a', 'c', 'c', 't', 0x01, 0x56}, java.util.Arrays.copyOf(pb, 7));
		PrefixedId p2 = new PrefixedId();
		p2.setByteValue(pb, 0);
		assertEquals(p, p2);
		TypeId t = TypeId.of("", new UUID(1, 2));
		byte[] tb = new byte[t.lengthInBytes()];
		t.toBytes(tb, 0);
		TypeId t2 = new TypeId();
		t2.setByteValue(tb, 0);
		assertEquals(t, t2);
		SQLException e = assertThrows(SQLException.class, () -> new PrefixedId().setByteValue(tb, 0));
		assertEquals("22P03", e.getSQLState(), "prefixed_id refuses the empty prefix");
		e = assertThrows(SQLException.class, () -> new Ulid().setByteValue(new byte[15], 0));
		assertEquals("22P03", e.getSQLState());
	}

	/**
	 * Text the server refuses because a character is not ASCII: a look-alike that Unicode case
	 * mapping or digit tables ({@code Character.toLowerCase}, {@code Character.digit}) turn into a
	 * digit or letter of the alphabet (issue 51); the server reads bytes, and only ASCII digits and
	 * letters are digits (src/core/base32.cpp, base36.cpp, prefixed.cpp). The same cases, in the same
	 * order and spelling, are in every client's offline tests until the shared vectors file holds
	 * them (test/data/id_vectors.json, issue 52). {family, text, what}: the look-alike in a valid ID
	 * (the bits of docs/internals.md's binary example).
	 */
	static final String[][] NOT_ASCII = {
		{"ulid", "01H455VB4PEX5VS\u212aNK084SN02Q", "U+212A KELVIN SIGN for K"},
		{"ulid", "01H455VB4PEX5V\u017fKNK084SN02Q", "U+017F LATIN SMALL LETTER LONG S (uppercases to S) for S"},
		{"ulid", "0\u0131H455VB4PEX5VSKNK084SN02Q", "U+0131 LATIN SMALL LETTER DOTLESS I (uppercases to I, an alias of 1) for 1"},
		{"ulid", "0\u0130H455VB4PEX5VSKNK084SN02Q", "U+0130 LATIN CAPITAL LETTER I WITH DOT ABOVE (lowercases to i) for 1"},
		{"ulid", "01H\uff1455VB4PEX5VSKNK084SN02Q", "U+FF14 FULLWIDTH DIGIT FOUR for 4"},
		{"ulid", "01H455VB4PEX5VSKNK084SN02\uff31", "U+FF31 FULLWIDTH LATIN CAPITAL LETTER Q for Q"},
		{"ulid", "01H\u066455VB4PEX5VSKNK084SN02Q", "U+0664 ARABIC-INDIC DIGIT FOUR for 4"},
		{"prefixed_id", "acct_039sr\u212aj01e44uynszf2f2njh3", "U+212A KELVIN SIGN for k"},
		{"prefixed_id", "acct_039\u017frkj01e44uynszf2f2njh3", "U+017F LATIN SMALL LETTER LONG S (uppercases to S) for s"},
		{"prefixed_id", "acct_039srkj01e44\u0131ynszf2f2njh3", "U+0131 LATIN SMALL LETTER DOTLESS I (uppercases to I) for u"},
		{"prefixed_id", "acct_039srkj01e44\u0130ynszf2f2njh3", "U+0130 LATIN CAPITAL LETTER I WITH DOT ABOVE (lowercases to i) for u"},
		{"prefixed_id", "acct_\uff1039srkj01e44uynszf2f2njh3", "U+FF10 FULLWIDTH DIGIT ZERO for 0"},
		{"prefixed_id", "acct_039srkj01e44uynszf2f2nj\uff483", "U+FF48 FULLWIDTH LATIN SMALL LETTER H for h"},
		{"prefixed_id", "acct_\u066039srkj01e44uynszf2f2njh3", "U+0660 ARABIC-INDIC DIGIT ZERO for 0"},
		{"prefixed_id", "acct_\u096639srkj01e44uynszf2f2njh3", "U+0966 DEVANAGARI DIGIT ZERO for 0"},
		{"prefixed_id", "tas\u212a_039srkj01e44uynszf2f2njh3", "U+212A KELVIN SIGN for k in the prefix"},
		{"prefixed_id", "ta\u017fk_039srkj01e44uynszf2f2njh3", "U+017F LATIN SMALL LETTER LONG S for s in the prefix"},
		{"prefixed_id", "\u0131tem_039srkj01e44uynszf2f2njh3", "U+0131 LATIN SMALL LETTER DOTLESS I for i in the prefix"},
		{"prefixed_id", "\u0130tem_039srkj01e44uynszf2f2njh3", "U+0130 LATIN CAPITAL LETTER I WITH DOT ABOVE for i in the prefix"},
		{"prefixed_id", "\uff41cct_039srkj01e44uynszf2f2njh3", "U+FF41 FULLWIDTH LATIN SMALL LETTER A for a in the prefix"},
		{"typeid", "prefix_01h455vb4pex5vs\u212ank084sn02q", "U+212A KELVIN SIGN (lowercases to k) for k"},
		{"typeid", "prefix_01h455vb4pex5v\u017fknk084sn02q", "U+017F LATIN SMALL LETTER LONG S for s"},
		{"typeid", "prefix_0\u0131h455vb4pex5vsknk084sn02q", "U+0131 LATIN SMALL LETTER DOTLESS I (an alias of 1) for 1"},
		{"typeid", "prefix_01h\uff1455vb4pex5vsknk084sn02q", "U+FF14 FULLWIDTH DIGIT FOUR for 4"},
		{"typeid", "prefix_01h455vb4pex5vsknk084sn02\uff51", "U+FF51 FULLWIDTH LATIN SMALL LETTER Q for q"},
		{"typeid", "prefix_01h\u066455vb4pex5vsknk084sn02q", "U+0664 ARABIC-INDIC DIGIT FOUR for 4"},
		{"typeid", "01h455vb4pex5vs\u212ank084sn02q", "U+212A KELVIN SIGN for k without a prefix"},
		{"typeid", "pref\u0131x_01h455vb4pex5vsknk084sn02q", "U+0131 LATIN SMALL LETTER DOTLESS I for i in the prefix"},
		{"typeid", "pref\u0130x_01h455vb4pex5vsknk084sn02q", "U+0130 LATIN CAPITAL LETTER I WITH DOT ABOVE for i in the prefix"},
		{"typeid", "tas\u212a_01h455vb4pex5vsknk084sn02q", "U+212A KELVIN SIGN for k in the prefix"},
		{"uuid", "\uff101890a5d-ac96-774b-bcce-b302099a8057", "U+FF10 FULLWIDTH DIGIT ZERO for 0"},
		{"uuid", "01890\uff415d-ac96-774b-bcce-b302099a8057", "U+FF41 FULLWIDTH LATIN SMALL LETTER A for a"},
		{"uuid", "\u06601890a5d-ac96-774b-bcce-b302099a8057", "U+0660 ARABIC-INDIC DIGIT ZERO for 0"},
		{"snowflake", "900719925474099\uff12", "U+FF12 FULLWIDTH DIGIT TWO for 2"},
		{"snowflake", "\u0669007199254740992", "U+0669 ARABIC-INDIC DIGIT NINE for 9"},
	};

	/**
	 * Each text parser refuses every non-ASCII look-alike, as the server does. The package parses
	 * no uuid or snowflake text (it takes java.util.UUID and long): those cases are not run here.
	 */
	@Test
	void notAsciiLookAlikesAreRefused()
	{
		Map<String, Function<String, Object>> parsers = Map.of("ulid", Ulid::parse, "prefixed_id", PrefixedId::parse,
				"typeid", TypeId::parse);
		int run = 0;
		for (String[] c : NOT_ASCII)
		{
			Function<String, Object> parse = parsers.get(c[0]);
			if (parse == null)
				continue;
			run++;
			assertThrows(IllegalArgumentException.class, () -> parse.apply(c[1]), c[0] + ": " + c[2] + " accepted");
		}
		assertEquals(30, run);
		// each case differs from one of these by its look-alike
		UUID bits = UUID.fromString("01890a5d-ac96-774b-bcce-b302099a8057");
		assertEquals(bits, Ulid.parse("01H455VB4PEX5VSKNK084SN02Q").toUuid());
		assertEquals(bits, PrefixedId.parse("task_039SRKJ01E44UYNSZF2F2NJH3").toUuid());
		assertEquals(bits, TypeId.parse("prefix_01h455vb4pex5vsknk084sn02q").toUuid());
	}
}
