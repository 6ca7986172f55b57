package org.idgen;

import java.time.Instant;

/**
 * Decoding of idgen's snowflake IDs, as {@code snowflake_time(id, epoch)}, {@code snowflake_shard()}
 * and {@code snowflake_seq()} do ({@link #SNOWFLAKE}), and as the {@code snowflake53_} functions do
 * ({@link #SNOWFLAKE53}). The epoch is the server's {@code idgen.snowflake_epoch}
 * ({@link #DEFAULT_SNOWFLAKE_EPOCH} unless it was changed): an ID holds no epoch of its own.
 *
 * <pre>
 *   snowflake:   | 0 | ms since the epoch (40 bits) | shard (13) | seq (10) |
 *   snowflake53: | 0 (11) | ms since the epoch (40) | shard (4) | seq (9) |
 * </pre>
 */
public final class Snowflake
{
	/** The default of {@code idgen.snowflake_epoch}, 2024-01-01 00:00:00 UTC. */
	public static final Instant DEFAULT_SNOWFLAKE_EPOCH = Instant.parse("2024-01-01T00:00:00Z");
	/** The 63-bit split of {@code snowflake()}: 8192 shards, 1024 IDs a millisecond each. */
	public static final Snowflake SNOWFLAKE = new Snowflake("snowflake", 13, 10);
	/** The 53-bit split of {@code snowflake53()}: 16 shards, 512 IDs a millisecond each. */
	public static final Snowflake SNOWFLAKE53 = new Snowflake("snowflake53", 4, 9);

	private static final int TIME_BITS = 40;
	private static final long SMALL_ID_LIMIT = 1L << 53;

	private final String name;
	private final int shardBits;
	private final int seqBits;

	private Snowflake(String name, int shardBits, int seqBits)
	{
		this.name = name;
		this.shardBits = shardBits;
		this.seqBits = seqBits;
	}

	/**
	 * Whether the value can be an ID of this split: snowflake53 IDs are below 2^53, snowflake IDs
	 * from 2^53 on; the decoders refuse the others, as the server does (22003).
	 */
	public boolean isValid(long id)
	{
		int bits = TIME_BITS + shardBits + seqBits;
		return bits > 53 ? id >= SMALL_ID_LIMIT : id >= 0 && id < SMALL_ID_LIMIT;
	}

	/**
	 * The split's fields from the most significant bit: the zero bits, the milliseconds, the shard
	 * and the sequence, in bits (the package's tests hold them to the extension's vectors file).
	 */
	public int[] fieldBits()
	{
		return new int[] {64 - TIME_BITS - shardBits - seqBits, TIME_BITS, shardBits, seqBits};
	}

	private long checked(long id)
	{
		if (!isValid(id))
			throw new IllegalArgumentException(id + " is not a " + name + " id");
		return id;
	}

	/** The millisecond the ID was issued in, counted from {@link #DEFAULT_SNOWFLAKE_EPOCH}. */
	public Instant time(long id)
	{
		return time(id, DEFAULT_SNOWFLAKE_EPOCH);
	}

	/** The millisecond the ID was issued in, counted from the epoch. */
	public Instant time(long id, Instant epoch)
	{
		if (epoch.isBefore(Instant.EPOCH))
			throw new IllegalArgumentException("invalid epoch for snowflake: \"" + epoch + "\"");
		return epoch.plusMillis(checked(id) >>> (shardBits + seqBits));
	}

	/** The shard that issued the ID. */
	public int shard(long id)
	{
		return (int) ((checked(id) >>> seqBits) & ((1L << shardBits) - 1));
	}

	/** The ID's sequence number within its millisecond and shard. */
	public int seq(long id)
	{
		return (int) (checked(id) & ((1L << seqBits) - 1));
	}

	@Override
	public String toString()
	{
		return name;
	}
}
