package org.idgen;

import java.util.UUID;

/**
 * A value of idgen's {@code prefixed_id} type (and of the domains of {@code prefixed_id_define()}):
 * a prefix of a-z and "_" and 128 bits, as text {@code acct_} and 25 base36 digits. Register it with
 * {@link Idgen#register}; {@code setObject} sends it as a {@code prefixed_id}, which a domain column
 * accepts when the prefix is its own. Immutable once set; the text is always lower case.
 * {@link #prefix()} and {@link #toUuid()} give what {@code prefixed_id_prefix()} and
 * {@code prefixed_id_uuid()} give.
 */
public final class PrefixedId extends PrefixedBits implements Comparable<PrefixedId>
{
	private static final long serialVersionUID = 1L;
	/** The type's name in PostgreSQL. */
	public static final String TYPE = "prefixed_id";

	/** An empty value, for pgjdbc, which sets its text with {@link #setValue}. */
	public PrefixedId()
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
		return false;
	}

	@Override
	String digits(long hi, long lo)
	{
		return Codec.base36(hi, lo);
	}

	@Override
	long[] parseDigits(String digits)
	{
		return Codec.parseBase36(digits);
	}

	/** The ID of this text, or IllegalArgumentException. */
	public static PrefixedId parse(String text)
	{
		PrefixedId id = new PrefixedId();
		if (!id.read(text))
			throw new IllegalArgumentException(id.message(text));
		return id;
	}

	/** The ID of a prefix and 128 bits (what {@code prefixed_id_from_uuid()} gives). */
	public static PrefixedId of(String prefix, UUID payload)
	{
		if (prefix == null || !Codec.validPrefix(prefix))
			throw new IllegalArgumentException("invalid prefix for prefixed_id: \"" + prefix + "\"");
		PrefixedId id = new PrefixedId();
		id.set(prefix, payload.getMostSignificantBits(), payload.getLeastSignificantBits());
		return id;
	}

	/** By prefix, then by the 128 bits. */
	@Override
	public int compareTo(PrefixedId other)
	{
		return compareBits(other);
	}

	@Override
	public PrefixedId clone() throws CloneNotSupportedException
	{
		return (PrefixedId) super.clone();
	}
}
