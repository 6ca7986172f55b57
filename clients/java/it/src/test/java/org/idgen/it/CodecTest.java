package org.idgen.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.sql.SQLException;
import java.util.UUID;
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
}
