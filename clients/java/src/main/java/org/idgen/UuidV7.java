package org.idgen;

import java.time.Instant;
import java.util.Optional;
import java.util.UUID;

/** Decoding of UUIDv7 values (RFC 9562, section 5.7) as {@code uuid_v7_time()} does. */
public final class UuidV7
{
	private UuidV7()
	{
	}

	/**
	 * The millisecond in the first 48 bits of a version 7 UUID with the RFC variant; empty for any
	 * other UUID, as {@code uuid_v7_time()} gives NULL.
	 */
	public static Optional<Instant> time(UUID id)
	{
		if (id.version() != 7 || id.variant() != 2)
			return Optional.empty();
		return Optional.of(Instant.ofEpochMilli(id.getMostSignificantBits() >>> 16));
	}
}
