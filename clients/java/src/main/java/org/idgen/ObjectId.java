package org.idgen;

/**
 * A value of idgen's {@code objectid} type (MongoDB's ObjectId, the BSON spec's): 12 bytes, 4 of
 * big-endian Unix seconds, a 5-byte process value and a 3-byte counter, whose text is 24 hex digits
 * (read in either case, written in lowercase). Register it with {@link Idgen#register} and
 * {@code getObject} returns it; {@code setObject} sends it as an {@code objectid}, in binary (the 12
 * bytes) where the connection transfers it so. Immutable once set; values order as their bytes.
 * The BSON library's own {@code org.bson.types.ObjectId} (Maven {@code org.mongodb:bson}, an
 * optional dependency of this package) converts both ways: {@link #of(org.bson.types.ObjectId)} and
 * {@link #toBson()}.
 */
public final class ObjectId extends FixedBytes implements Comparable<ObjectId>
{
	private static final long serialVersionUID = 1L;
	/** The type's name in PostgreSQL. */
	public static final String TYPE = "objectid";
	/** The number of bytes. */
	public static final int BYTES = 12;

	/** An empty value, for pgjdbc, which sets its text with {@link #setValue}. */
	public ObjectId()
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
		return Codec.hex(bytes);
	}

	@Override
	byte[] parseText(String text)
	{
		return Codec.parseHex(text, BYTES);
	}

	@Override
	long epochSecond()
	{
		return 0;
	}

	/** The ObjectId of this text (24 hex digits, either case), or IllegalArgumentException. */
	public static ObjectId parse(String text)
	{
		ObjectId id = new ObjectId();
		if (!id.read(text))
			throw new IllegalArgumentException(id.message(text));
		return id;
	}

	/** The ObjectId of these 12 bytes (its binary form, what the cast from bytea takes), or IllegalArgumentException. */
	public static ObjectId fromBytes(byte[] bytes)
	{
		ObjectId id = new ObjectId();
		if (!id.readBytes(bytes))
			throw new IllegalArgumentException(id.lengthMessage(bytes == null ? 0 : bytes.length));
		return id;
	}

	/** The same 12 bytes as the BSON library's ObjectId (it needs {@code org.mongodb:bson} on the class path). */
	public static ObjectId of(org.bson.types.ObjectId bson)
	{
		return fromBytes(bson.toByteArray());
	}

	/** The BSON library's ObjectId of the same 12 bytes (it needs {@code org.mongodb:bson} on the class path). */
	public org.bson.types.ObjectId toBson()
	{
		return new org.bson.types.ObjectId(toByteArray());
	}

	/** The 5-byte process value, bytes 5 to 9 (what {@code objectid_process()} gives; a new array). */
	public byte[] process()
	{
		return slice(4, 9);
	}

	/** The 24-bit counter, the last 3 bytes, 0 to 16777215 (what {@code objectid_counter()} gives). */
	public int counter()
	{
		return number(9, 12);
	}

	@Override
	public int compareTo(ObjectId other)
	{
		return compareBytes(other);
	}

	@Override
	public ObjectId clone() throws CloneNotSupportedException
	{
		return (ObjectId) super.clone();
	}
}
