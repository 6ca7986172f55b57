package org.idgen;

import java.sql.SQLException;
import java.util.Objects;
import java.util.UUID;
import org.postgresql.util.PGBinaryObject;
import org.postgresql.util.PGobject;

/**
 * What {@link PrefixedId} and {@link TypeId} share: a prefix and 128 bits, the text
 * {@code prefix_digits} (only the digits for an empty prefix, where the type allows one), the
 * binary form (length byte L, L prefix bytes, 16 bytes) and the order by prefix, then bits. A
 * subclass names its type and gives its digits (base36 or lower-case base32).
 */
abstract class PrefixedBits extends PGobject implements PGBinaryObject
{
	private static final long serialVersionUID = 1L;

	private String prefix;
	private long hi;
	private long lo;

	PrefixedBits(String type)
	{
		setType(type);
	}

	/** The type's name, in messages. */
	abstract String typeName();

	/** Whether "" is a prefix (the text is then the digits alone). */
	abstract boolean emptyPrefix();

	/** The 128 bits as the type's digits. */
	abstract String digits(long hi, long lo);

	/** The 128 bits of the type's digits, or null. */
	abstract long[] parseDigits(String digits);

	final void set(String prefix, long hi, long lo)
	{
		this.prefix = prefix;
		this.hi = hi;
		this.lo = lo;
		this.value = text(prefix, hi, lo);
	}

	private String text(String prefix, long hi, long lo)
	{
		String digits = digits(hi, lo);
		return prefix.isEmpty() ? digits : prefix + "_" + digits;
	}

	/** The prefix ("" for none where the type allows it). */
	public String prefix()
	{
		return prefix;
	}

	/** The 128 bits. */
	public UUID toUuid()
	{
		return new UUID(hi, lo);
	}

	/** Takes this text; false when it is not one of the type's values. */
	final boolean read(String text)
	{
		if (text == null)
			return false;
		int separator = text.lastIndexOf('_');
		if (separator < 0 && !emptyPrefix())
			return false;
		String p = separator < 0 ? "" : text.substring(0, separator);
		long[] bits = parseDigits(text.substring(separator + 1));
		if ((separator >= 0 && !Codec.validPrefix(p)) || bits == null)
			return false;
		set(p, bits[0], bits[1]);
		return true;
	}

	final String message(String text)
	{
		return "invalid input syntax for type " + typeName() + ": \"" + text + "\"";
	}

	private void unchanged(String text) throws SQLException
	{
		if (this.value != null && !this.value.equals(text))
			throw new SQLException("a " + typeName() + " value cannot be changed", "55000");
	}

	@Override
	public void setValue(String text) throws SQLException
	{
		unchanged(text);
		if (text != null && !read(text))
			throw new SQLException(message(text), "22P02");
	}

	/** Reads the binary form: length byte L, L prefix bytes, 16 bytes (pgjdbc calls it for a binary result). */
	@Override
	public void setByteValue(byte[] bytes, int offset) throws SQLException
	{
		String p = Codec.wirePrefix(bytes, offset, emptyPrefix());
		if (p == null)
			throw new SQLException("invalid binary " + typeName(), "22P03");
		int at = offset + 1 + p.length();
		long h = Codec.readLong(bytes, at), l = Codec.readLong(bytes, at + 8);
		unchanged(text(p, h, l));
		set(p, h, l);
	}

	@Override
	public int lengthInBytes()
	{
		return 1 + prefix.length() + 16;
	}

	/** Writes the binary form (pgjdbc calls it for a binary parameter). */
	@Override
	public void toBytes(byte[] bytes, int offset)
	{
		Codec.writeWire(prefix, hi, lo, bytes, offset);
	}

	/** By prefix, then by the 128 bits. */
	final int compareBits(PrefixedBits other)
	{
		int c = prefix.compareTo(other.prefix);
		if (c == 0)
			c = Long.compareUnsigned(hi, other.hi);
		return c != 0 ? c : Long.compareUnsigned(lo, other.lo);
	}

	/** The same class and the same text. */
	@Override
	public boolean equals(Object other)
	{
		return other != null && other.getClass() == getClass() && value != null
			&& value.equals(((PrefixedBits) other).value);
	}

	@Override
	public int hashCode()
	{
		return Objects.hashCode(value);
	}
}
