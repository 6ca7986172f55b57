package org.idgen;

/**
 * A value of idgen's {@code rsxid} type (rs/xid's IDs; the family is named xid): 12 bytes, 4 of
 * big-endian Unix seconds, a 3-byte machine id, a 2-byte process id and a 3-byte counter, whose text
 * is 20 characters of lowercase base32hex ({@code 0-9a-v}), unpadded, the last one {@code 0} or
 * {@code g}. Register it with {@link Idgen#register} and {@code getObject} returns it;
 * {@code setObject} sends it as an {@code rsxid}, in binary (the 12 bytes) where the connection
 * transfers it so. Immutable once set; values order as their bytes, which is their text's order.
 */
public final class Xid extends FixedBytes implements Comparable<Xid>
{
	private static final long serialVersionUID = 1L;
	/** The type's name in PostgreSQL. */
	public static final String TYPE = "rsxid";
	/** The number of bytes. */
	public static final int BYTES = 12;

	/** An empty value, for pgjdbc, which sets its text with {@link #setValue}. */
	public Xid()
	{
		super(TYPE);
	}

	@Override
	int size()
	{
		return BYTES;
	}

	@Override
	String text(byte[] bytes)
	{
		return Codec.base32hex(bytes);
	}

	@Override
	byte[] parseText(String text)
	{
		return Codec.parseBase32hex(text, BYTES);
	}

	@Override
	long epochSecond()
	{
		return 0;
	}

	/** The XID of this text (20 lowercase base32hex characters, as rs/xid reads them), or IllegalArgumentException. */
	public static Xid parse(String text)
	{
		Xid id = new Xid();
		if (!id.read(text))
			throw new IllegalArgumentException(id.message(text));
		return id;
	}

	/** The XID of these 12 bytes (its binary form, what the cast from bytea takes), or IllegalArgumentException. */
	public static Xid fromBytes(byte[] bytes)
	{
		Xid id = new Xid();
		if (!id.readBytes(bytes))
			throw new IllegalArgumentException(id.lengthMessage(bytes == null ? 0 : bytes.length));
		return id;
	}

	/** The 3-byte machine id, bytes 5 to 7 (what {@code xid_machine()} gives; a new array). */
	public byte[] machine()
	{
		return slice(4, 7);
	}

	/** The 16-bit process id, bytes 8 and 9, 0 to 65535 (what {@code xid_pid()} gives). */
	public int pid()
	{
		return number(7, 9);
	}

	/** The 24-bit counter, the last 3 bytes, 0 to 16777215 (what {@code xid_counter()} gives). */
	public int counter()
	{
		return number(9, 12);
	}

	@Override
	public int compareTo(Xid other)
	{
		return compareBytes(other);
	}

	@Override
	public Xid clone() throws CloneNotSupportedException
	{
		return (Xid) super.clone();
	}
}
