package org.idgen;

/**
 * A value of idgen's {@code ksuid} type (segmentio/ksuid's IDs): 20 bytes, 4 of big-endian seconds
 * since {@link #EPOCH} and a 16-byte payload, whose text is 27 base62 characters ({@code 0-9A-Za-z},
 * case matters). Register it with {@link Idgen#register} and {@code getObject} returns it;
 * {@code setObject} sends it as a {@code ksuid}, in binary (the 20 bytes) where the connection
 * transfers it so. Immutable once set; values order as their bytes, which is their text's order
 * (under C collation) and their seconds' order.
 */
public final class Ksuid extends FixedBytes implements Comparable<Ksuid>
{
	private static final long serialVersionUID = 1L;
	/** The type's name in PostgreSQL. */
	public static final String TYPE = "ksuid";
	/** The second the timestamp counts from, 2014-05-13 16:53:20 UTC, as Unix seconds. */
	public static final long EPOCH = 1_400_000_000L;
	/** The number of bytes. */
	public static final int BYTES = 20;

	/** An empty value, for pgjdbc, which sets its text with {@link #setValue}. */
	public Ksuid()
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
		return Codec.base62(bytes);
	}

	@Override
	byte[] parseText(String text)
	{
		return Codec.parseBase62(text, BYTES);
	}

	@Override
	long epochSecond()
	{
		return EPOCH;
	}

	/** The KSUID of this text (27 base62 characters, at most {@code aWgEPTl1tmebfsQzFP4bxwgy80V}), or IllegalArgumentException. */
	public static Ksuid parse(String text)
	{
		Ksuid id = new Ksuid();
		if (!id.read(text))
			throw new IllegalArgumentException(id.message(text));
		return id;
	}

	/** The KSUID of these 20 bytes (its binary form, what the cast from bytea takes), or IllegalArgumentException. */
	public static Ksuid fromBytes(byte[] bytes)
	{
		Ksuid id = new Ksuid();
		if (!id.readBytes(bytes))
			throw new IllegalArgumentException(id.lengthMessage(bytes == null ? 0 : bytes.length));
		return id;
	}

	/** The 16-byte payload, the last 16 bytes (what {@code ksuid_payload()} gives; a new array). */
	public byte[] payload()
	{
		return slice(4, BYTES);
	}

	@Override
	public int compareTo(Ksuid other)
	{
		return compareBytes(other);
	}

	@Override
	public Ksuid clone() throws CloneNotSupportedException
	{
		return (Ksuid) super.clone();
	}
}
