package org.idgen;

import java.util.UUID;

/**
 * A value of idgen's {@code typeid} type (and of the domains of {@code typeid_define()}): the TypeID
 * specification's prefix and 128 bits, as text {@code user_} and 26 lower-case Crockford base32
 * digits (no prefix and no "_" for the empty prefix). Register it with {@link Idgen#register};
 * {@code setObject} sends it as a {@code typeid}. Immutable once set. {@link #prefix()} ("" for
 * none) and {@link #toUuid()} give what {@code typeid_prefix()} and {@code typeid_uuid()} give.
 */
public final class TypeId extends PrefixedBits implements Comparable<TypeId>
{
	private static final long serialVersionUID = 1L;
	/** The type's name in PostgreSQL. */
	public static final String TYPE = "typeid";

	/** An empty value, for pgjdbc, which sets its text with {@link #setValue}. */
	public TypeId()
	{
		super(TYPE);
	}

	@Override
	String typeName()
	{
		return TYPE;
	}

	@Override
	boolean emptyPrefix()
	{
		return true;
	}

	@Override
	String digits(long hi, long lo)
	{
		return Codec.base32(hi, lo, true);
	}

	@Override
	long[] parseDigits(String digits)
	{
		return Codec.parseBase32(digits, true);
	}

	/** The TypeID of this text, or IllegalArgumentException. */
	public static TypeId parse(String text)
	{
		TypeId id = new TypeId();
		if (!id.read(text))
			throw new IllegalArgumentException(id.message(text));
		return id;
	}

	/** The TypeID of a prefix ("" for none) and 128 bits (what {@code typeid_from_uuid()} gives). */
	public static TypeId of(String prefix, UUID payload)
	{
		if (prefix == null || (!prefix.isEmpty() && !Codec.validPrefix(prefix)))
			throw new IllegalArgumentException("invalid prefix for typeid: \"" + prefix + "\"");
		TypeId id = new TypeId();
		id.set(prefix, payload.getMostSignificantBits(), payload.getLeastSignificantBits());
		return id;
	}

	/** By prefix, then by the 128 bits. */
	@Override
	public int compareTo(TypeId other)
	{
		return compareBits(other);
	}

	@Override
	public TypeId clone() throws CloneNotSupportedException
	{
		return (TypeId) super.clone();
	}
}
