package org.idgen;

import java.time.Instant;

/**
 * Firebase push IDs: 20 characters of {@link #ALPHABET}, the first 8 the Unix millisecond in base 64,
 * read as the server's {@code push_id_time()} and {@code push_id_is_valid()} do.
 */
public final class PushId
{
	/** The 64 characters in ASCII order: a character's value is its position. */
	public static final String ALPHABET = "-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz";

	private PushId()
	{
	}

	/** Whether text is exactly 20 characters of {@link #ALPHABET}, as {@code push_id_is_valid()}. */
	public static boolean isValid(String text)
	{
		if (text.length() != 20)
			return false;
		for (int i = 0; i < text.length(); i++)
			if (ALPHABET.indexOf(text.charAt(i)) < 0)
				return false;
		return true;
	}

	/**
	 * The millisecond in the first 8 characters, as {@code push_id_time()}.
	 *
	 * @throws IllegalArgumentException for text that is no push ID, which the server refuses with 22P02
	 */
	public static Instant time(String text)
	{
		if (!isValid(text))
			throw new IllegalArgumentException("invalid push ID \"" + text + "\": a push ID is 20 characters of -, 0-9, A-Z, _ and a-z");
		long ms = 0;
		for (int i = 0; i < 8; i++)
			ms = ms << 6 | ALPHABET.indexOf(text.charAt(i));
		return Instant.ofEpochMilli(ms);
	}
}
