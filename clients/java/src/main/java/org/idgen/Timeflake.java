package org.idgen;

import java.math.BigInteger;
import java.time.Instant;
import java.util.UUID;

/**
 * Decoding of Timeflakes (48-bit Unix milliseconds, then 80 random bits, held in a {@code uuid}) as
 * the server's {@code timeflake_time()} and {@code timeflake_random()} do.
 */
public final class Timeflake
{
	private Timeflake()
	{
	}

	/** The millisecond in the high 48 bits, as {@code timeflake_time()}. */
	public static Instant time(UUID id)
	{
		return Instant.ofEpochMilli(id.getMostSignificantBits() >>> 16);
	}

	/** The low 80 bits as a non-negative integer (0 to 2^80 - 1), as {@code timeflake_random()}. */
	public static BigInteger random(UUID id)
	{
		BigInteger high = BigInteger.valueOf(id.getMostSignificantBits() & 0xFFFF);
		BigInteger low = new BigInteger(Long.toUnsignedString(id.getLeastSignificantBits()));
		return high.shiftLeft(64).or(low);
	}
}
