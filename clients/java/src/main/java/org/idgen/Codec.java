package org.idgen;

import java.util.UUID;

/** The text forms of idgen's 128-bit values: Crockford base32 (ULID, TypeID) and base36 (prefixed IDs). */
final class Codec
{
	private static final String BASE32 = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
	private static final String BASE32_LOWER = "0123456789abcdefghjkmnpqrstvwxyz";
	private static final String BASE36 = "0123456789abcdefghijklmnopqrstuvwxyz";
	/** Each base32 character's digit (either case), -1 for the others. */
	private static final int[] BASE32_VALUE = new int[128];
	/** Each base36 character's digit (either case), -1 for the others. */
	private static final int[] BASE36_VALUE = new int[128];

	static
	{
		java.util.Arrays.fill(BASE32_VALUE, -1);
		java.util.Arrays.fill(BASE36_VALUE, -1);
		for (int d = 0; d < 32; d++)
		{
			BASE32_VALUE[BASE32.charAt(d)] = d;
			BASE32_VALUE[BASE32_LOWER.charAt(d)] = d;
		}
		for (int d = 0; d < 36; d++)
		{
			BASE36_VALUE[BASE36.charAt(d)] = d;
			BASE36_VALUE[Character.toUpperCase(BASE36.charAt(d))] = d;
		}
	}

	static final int BASE32_DIGITS = 26;
	static final int BASE36_DIGITS = 25;

	private Codec()
	{
	}

	/** 26 base32 digits of the 128 bits, upper or lower case. */
	static String base32(long hi, long lo, boolean lower)
	{
		String alphabet = lower ? BASE32_LOWER : BASE32;
		char[] out = new char[BASE32_DIGITS];
		// 130 bits of digits: the top two are zero; digit i holds bits 125-5i .. 129-5i
		for (int i = BASE32_DIGITS - 1; i >= 0; i--)
		{
			out[i] = alphabet.charAt((int) (lo & 31));
			lo = (lo >>> 5) | (hi << 59);
			hi >>>= 5;
		}
		return new String(out);
	}

	/**
	 * The 128 bits of 26 base32 digits as {hi, lo}, or null when the text is not 26 digits of the
	 * alphabet (lower case only where lowerOnly) with a first digit of at most 7.
	 */
	static long[] parseBase32(CharSequence text, boolean lowerOnly)
	{
		if (text.length() != BASE32_DIGITS)
			return null;
		long hi = 0, lo = 0;
		for (int i = 0; i < BASE32_DIGITS; i++)
		{
			char c = text.charAt(i);
			int d = c < 128 ? BASE32_VALUE[c] : -1;
			if (d < 0 || (lowerOnly && c >= 'A' && c <= 'Z') || (i == 0 && d > 7))
				return null;
			hi = (hi << 5) | (lo >>> 59);
			lo = (lo << 5) | d;
		}
		return new long[] {hi, lo};
	}

	/** 25 lowercase base36 digits of the 128 bits. */
	static String base36(long hi, long lo)
	{
		char[] out = new char[BASE36_DIGITS];
		for (int i = BASE36_DIGITS - 1; i >= 0; i--)
		{
			// (hi, lo) / 36 with the remainder, as unsigned 128-bit long division in two steps
			long qHi = Long.divideUnsigned(hi, 36);
			long r = Long.remainderUnsigned(hi, 36);
			// r * 2^64 + lo, divided by 36, in 32-bit halves
			long mid = (r << 32) | (lo >>> 32);
			long qMid = Long.divideUnsigned(mid, 36);
			r = Long.remainderUnsigned(mid, 36);
			long low = (r << 32) | (lo & 0xFFFFFFFFL);
			long qLow = Long.divideUnsigned(low, 36);
			r = Long.remainderUnsigned(low, 36);
			out[i] = BASE36.charAt((int) r);
			hi = qHi;
			lo = (qMid << 32) | qLow;
		}
		return new String(out);
	}

	/** The 128 bits of 25 base36 digits (either case) as {hi, lo}, or null if it is not that or above 2^128 - 1. */
	static long[] parseBase36(CharSequence text)
	{
		if (text.length() != BASE36_DIGITS)
			return null;
		long hi = 0, lo = 0;
		for (int i = 0; i < BASE36_DIGITS; i++)
		{
			char c = text.charAt(i);
			int d = c < 128 ? BASE36_VALUE[c] : -1;
			if (d < 0)
				return null;
			// (hi, lo) * 36 + d, refusing a carry out of 128 bits
			long loLow = (lo & 0xFFFFFFFFL) * 36 + d;
			long loHigh = (lo >>> 32) * 36 + (loLow >>> 32);
			long newLo = (loHigh << 32) | (loLow & 0xFFFFFFFFL);
			long carry = loHigh >>> 32;
			long hiLow = (hi & 0xFFFFFFFFL) * 36 + carry;
			long hiHigh = (hi >>> 32) * 36 + (hiLow >>> 32);
			if ((hiHigh >>> 32) != 0)
				return null;
			hi = (hiHigh << 32) | (hiLow & 0xFFFFFFFFL);
			lo = newLo;
		}
		return new long[] {hi, lo};
	}

	/** Whether a prefix is 1 to 63 of a-z and "_", not starting or ending with "_". */
	static boolean validPrefix(CharSequence prefix)
	{
		int n = prefix.length();
		if (n == 0 || n > 63 || prefix.charAt(0) == '_' || prefix.charAt(n - 1) == '_')
			return false;
		for (int i = 0; i < n; i++)
		{
			char c = prefix.charAt(i);
			if (!((c >= 'a' && c <= 'z') || c == '_'))
				return false;
		}
		return true;
	}

	static UUID uuid(long[] bits)
	{
		return new UUID(bits[0], bits[1]);
	}

	/** The big-endian long at bytes[offset..offset+7]. */
	static long readLong(byte[] bytes, int offset)
	{
		long v = 0;
		for (int i = 0; i < 8; i++)
			v = (v << 8) | (bytes[offset + i] & 0xFF);
		return v;
	}

	/** Writes v big-endian at bytes[offset..offset+7]. */
	static void writeLong(long v, byte[] bytes, int offset)
	{
		for (int i = 7; i >= 0; i--)
		{
			bytes[offset + i] = (byte) v;
			v >>>= 8;
		}
	}

	/**
	 * The prefix of a prefixed_id or typeid binary field (length byte L, L prefix bytes, 16 bytes),
	 * or null when the field is not that (L = 0 only where emptyAllowed).
	 */
	static String wirePrefix(byte[] bytes, int offset, boolean emptyAllowed)
	{
		if (bytes.length - offset < 1)
			return null;
		int n = bytes[offset] & 0xFF;
		if (bytes.length - offset != 1 + n + 16 || (n == 0 && !emptyAllowed))
			return null;
		String prefix = new String(bytes, offset + 1, n, java.nio.charset.StandardCharsets.US_ASCII);
		return n == 0 || validPrefix(prefix) ? prefix : null;
	}

	/** Writes a prefixed_id or typeid binary field. */
	static void writeWire(String prefix, long hi, long lo, byte[] bytes, int offset)
	{
		bytes[offset] = (byte) prefix.length();
		for (int i = 0; i < prefix.length(); i++)
			bytes[offset + 1 + i] = (byte) prefix.charAt(i);
		writeLong(hi, bytes, offset + 1 + prefix.length());
		writeLong(lo, bytes, offset + 9 + prefix.length());
	}
}
