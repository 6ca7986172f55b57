package org.idgen;

import java.sql.SQLException;
import java.time.Instant;
import java.util.UUID;
import org.postgresql.util.PGBinaryObject;
import org.postgresql.util.PGobject;

/**
 * A value of idgen's {@code ulid} type: 128 bits, whose text is 26 Crockford base32 digits. Register
 * it with {@link Idgen#register} and {@code getObject} returns it; {@code setObject} sends it as a
 * {@code ulid}, in binary (16 bytes) where the connection transfers it so. Values are immutable once
 * set; the text ({@code toString()}) is always upper case; values order as their bytes, which is the
 * text's order.
 */
public final class Ulid extends PGobject implements PGBinaryObject, Comparable<Ulid>
{
	private static final long serialVersionUID = 1L;
	/** The type's name in PostgreSQL. */
	public static final String TYPE = "ulid";

	private long hi;
	private long lo;

	/** An empty value, for pgjdbc, which sets its text with {@link #setValue}. */
	public Ulid()
	{
		setType(TYPE);
	}

	private Ulid(long hi, long lo)
	{
		this();
		this.hi = hi;
		this.lo = lo;
		this.value = Codec.base32(hi, lo, false);
	}

	/** The ULID of this text (either case), or IllegalArgumentException. */
	public static Ulid parse(String text)
	{
		long[] bits = text == null ? null : Codec.parseBase32(text, false);
		if (bits == null)
			throw new IllegalArgumentException(message(text));
		return new Ulid(bits[0], bits[1]);
	}

	/** The ULID with the same 128 bits as this UUID (what {@code uuid::ulid} gives). */
	public static Ulid fromUuid(UUID uuid)
	{
		return new Ulid(uuid.getMostSignificantBits(), uuid.getLeastSignificantBits());
	}

	/** The UUID with the same 128 bits (what {@code ulid::uuid} gives). */
	public UUID toUuid()
	{
		return new UUID(hi, lo);
	}

	/** The ULID of these 16 bytes, most significant first (its binary form), or IllegalArgumentException. */
	public static Ulid fromBytes(byte[] bytes)
	{
		if (bytes.length != 16)
			throw new IllegalArgumentException("a ulid is 16 bytes, not " + bytes.length);
		return new Ulid(Codec.readLong(bytes, 0), Codec.readLong(bytes, 8));
	}

	/** The 16 bytes, most significant first (a new array). */
	public byte[] toByteArray()
	{
		byte[] bytes = new byte[16];
		toBytes(bytes, 0);
		return bytes;
	}

	/** The millisecond in the first 48 bits (what {@code ulid_time()} gives). */
	public Instant time()
	{
		return Instant.ofEpochMilli(hi >>> 16);
	}

	@Override
	public void setValue(String text) throws SQLException
	{
		if (this.value != null && !this.value.equals(text))
			throw new SQLException("a ulid value cannot be changed", "55000");
		if (text == null)
			return;
		long[] bits = Codec.parseBase32(text, false);
		if (bits == null)
			throw new SQLException(message(text), "22P02");
		hi = bits[0];
		lo = bits[1];
		this.value = Codec.base32(hi, lo, false);
	}

	/** Reads the binary form, the 16 bytes (pgjdbc calls it for a binary result). */
	@Override
	public void setByteValue(byte[] bytes, int offset) throws SQLException
	{
		if (bytes.length - offset != 16)
			throw new SQLException("invalid binary ulid: " + (bytes.length - offset) + " bytes, not 16", "22P03");
		String text = Codec.base32(Codec.readLong(bytes, offset), Codec.readLong(bytes, offset + 8), false);
		if (this.value != null && !this.value.equals(text))
			throw new SQLException("a ulid value cannot be changed", "55000");
		hi = Codec.readLong(bytes, offset);
		lo = Codec.readLong(bytes, offset + 8);
		this.value = text;
	}

	@Override
	public int lengthInBytes()
	{
		return 16;
	}

	/** Writes the binary form (pgjdbc calls it for a binary parameter). */
	@Override
	public void toBytes(byte[] bytes, int offset)
	{
		Codec.writeLong(hi, bytes, offset);
		Codec.writeLong(lo, bytes, offset + 8);
	}

	private static String message(String text)
	{
		return "invalid input syntax for type ulid: \"" + text + "\"";
	}

	@Override
	public int compareTo(Ulid other)
	{
		int c = Long.compareUnsigned(hi, other.hi);
		return c != 0 ? c : Long.compareUnsigned(lo, other.lo);
	}

	@Override
	public boolean equals(Object other)
	{
		return other instanceof Ulid && ((Ulid) other).hi == hi && ((Ulid) other).lo == lo
				&& ((Ulid) other).value != null && value != null;
	}

	@Override
	public int hashCode()
	{
		return Long.hashCode(hi) * 31 + Long.hashCode(lo);
	}

	@Override
	public Ulid clone() throws CloneNotSupportedException
	{
		return (Ulid) super.clone();
	}
}
