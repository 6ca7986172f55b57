package org.idgen;

import java.sql.SQLException;
import java.time.Instant;
import java.util.Arrays;
import org.postgresql.util.PGBinaryObject;
import org.postgresql.util.PGobject;

/**
 * What {@link Ksuid}, {@link ObjectId} and {@link Xid} share: a fixed number of bytes whose binary
 * form is the bytes themselves, most significant first, and whose first 4 are big-endian unsigned
 * seconds; values order as their bytes. A subclass names its type and gives its text.
 */
abstract class FixedBytes extends PGobject implements PGBinaryObject
{
	private static final long serialVersionUID = 1L;

	private byte[] bytes;

	FixedBytes(String type)
	{
		setType(type);
	}

	/** How many bytes a value has. */
	abstract int size();

	/** The text of these bytes. */
	abstract String text(byte[] bytes);

	/** The bytes of this text, or null when it is not one of the type's values. */
	abstract byte[] parseText(String text);

	/** The seconds since the Unix epoch that the first 4 bytes count from. */
	abstract long epochSecond();

	final void set(byte[] bytes)
	{
		this.bytes = bytes.clone();
		this.value = text(this.bytes);
	}

	/** Takes the value of this text; false when it is not one. */
	final boolean read(String text)
	{
		byte[] b = text == null ? null : parseText(text);
		if (b == null)
			return false;
		set(b);
		return true;
	}

	/** Takes these bytes; false when they are not the type's size. */
	final boolean readBytes(byte[] b)
	{
		if (b == null || b.length != size())
			return false;
		set(b);
		return true;
	}

	final String message(String text)
	{
		return "invalid input syntax for type " + getType() + ": \"" + text + "\"";
	}

	final String lengthMessage(int length)
	{
		return "a " + getType() + " is " + size() + " bytes, not " + length;
	}

	/** The bytes, most significant first (a new array): the binary form, and what the cast to bytea gives. */
	public final byte[] toByteArray()
	{
		return bytes.clone();
	}

	/** The second in the first 4 bytes (what the type's {@code _time()} function gives). */
	public final Instant time()
	{
		return Instant.ofEpochSecond(epochSecond() + Codec.readUnsigned(bytes, 0, 4));
	}

	/** bytes[from..to-1] as a new array. */
	final byte[] slice(int from, int to)
	{
		return Arrays.copyOfRange(bytes, from, to);
	}

	/** The unsigned big-endian number in bytes[from..to-1]. */
	final int number(int from, int to)
	{
		return (int) Codec.readUnsigned(bytes, from, to - from);
	}

	private void unchanged(String text) throws SQLException
	{
		if (this.value != null && !this.value.equals(text))
			throw new SQLException("a " + getType() + " value cannot be changed", "55000");
	}

	@Override
	public void setValue(String text) throws SQLException
	{
		if (text == null)
		{
			unchanged(null);
			return;
		}
		byte[] b = parseText(text);
		if (b == null)
			throw new SQLException(message(text), "22P02");
		unchanged(text(b));
		set(b);
	}

	/** Reads the binary form, the bytes (pgjdbc calls it for a binary result). */
	@Override
	public void setByteValue(byte[] field, int offset) throws SQLException
	{
		if (field.length - offset != size())
			throw new SQLException("invalid binary " + getType() + ": " + (field.length - offset) + " bytes, not " + size(),
					"22P03");
		byte[] b = Arrays.copyOfRange(field, offset, field.length);
		unchanged(text(b));
		set(b);
	}

	@Override
	public int lengthInBytes()
	{
		return size();
	}

	/** Writes the binary form (pgjdbc calls it for a binary parameter). */
	@Override
	public void toBytes(byte[] out, int offset)
	{
		System.arraycopy(bytes, 0, out, offset, size());
	}

	/** As the bytes, unsigned: the server's order. */
	final int compareBytes(FixedBytes other)
	{
		return Arrays.compareUnsigned(bytes, other.bytes);
	}

	/** The same class and the same bytes. */
	@Override
	public boolean equals(Object other)
	{
		return other != null && other.getClass() == getClass() && bytes != null
				&& Arrays.equals(bytes, ((FixedBytes) other).bytes);
	}

	@Override
	public int hashCode()
	{
		return Arrays.hashCode(bytes);
	}

	@Override
	public FixedBytes clone() throws CloneNotSupportedException
	{
		FixedBytes copy = (FixedBytes) super.clone();
		if (bytes != null)
			copy.bytes = bytes.clone();
		return copy;
	}
}
