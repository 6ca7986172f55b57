package org.idgen;

import java.util.UUID;

/**
 * The text forms of idgen's values: Crockford base32 (ULID, TypeID) and base36 (prefixed IDs) of
 * 128 bits, base62 of KSUID's 160, hex of ObjectId's 96 and base32hex of XID's 96.
 */
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

	private static final String BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
	private static final String HEX = "0123456789abcdef";
	private static final String BASE32HEX = "0123456789abcdefghijklmnopqrstuv";
	/** Base62 digits of a KSUID: the fewest that hold 2^160 - 1. */
	static final int BASE62_DIGITS = 27;

	/** The digit of c in the alphabet (exact case), or -1; only ASCII characters are digits. */
	private static int digit(String alphabet, char c)
	{
		return c < 128 ? alphabet.indexOf(c) : -1;
	}

	/** 27 base62 digits of the bytes (a big-endian number), left-padded with 0. */
	static String base62(byte[] bytes)
	{
		byte[] n = bytes.clone();
		char[] out = new char[BASE62_DIGITS];
		for (int i = BASE62_DIGITS - 1; i >= 0; i--)
		{
			// n / 62 in place, byte by byte from the most significant; the remainder is the digit
			int r = 0;
			for (int j = 0; j < n.length; j++)
			{
				int cur = (r << 8) | (n[j] & 0xFF);
				n[j] = (byte) (cur / 62);
				r = cur % 62;
			}
			out[i] = BASE62.charAt(r);
		}
		return new String(out);
	}

	/**
	 * The `size` big-endian bytes of 27 base62 digits (case matters), or null when the text is not
	 * that or its number does not fit.
	 */
	static byte[] parseBase62(CharSequence text, int size)
	{
		if (text.length() != BASE62_DIGITS)
			return null;
		byte[] n = new byte[size];
		for (int i = 0; i < BASE62_DIGITS; i++)
		{
			int d = digit(BASE62, text.charAt(i));
			if (d < 0)
				return null;
			// n * 62 + d, from the least significant byte; a carry out of the top is too large
			int carry = d;
			for (int j = size - 1; j >= 0; j--)
			{
				int cur = (n[j] & 0xFF) * 62 + carry;
				n[j] = (byte) cur;
				carry = cur >>> 8;
			}
			if (carry != 0)
				return null;
		}
		return n;
	}

	/** Two lowercase hex digits a byte. */
	static String hex(byte[] bytes)
	{
		char[] out = new char[bytes.length * 2];
		for (int i = 0; i < bytes.length; i++)
		{
			out[2 * i] = HEX.charAt((bytes[i] >> 4) & 15);
			out[2 * i + 1] = HEX.charAt(bytes[i] & 15);
		}
		return new String(out);
	}

	/** The `size` bytes of 2 * size hex digits (either case), or null. */
	static byte[] parseHex(CharSequence text, int size)
	{
		if (text.length() != 2 * size)
			return null;
		byte[] out = new byte[size];
		for (int i = 0; i < text.length(); i++)
		{
			char c = text.charAt(i);
			int d = digit(HEX, c >= 'A' && c <= 'F' ? (char) (c + ('a' - 'A')) : c);
			if (d < 0)
				return null;
			out[i / 2] = (byte) ((out[i / 2] << 4) | d);
		}
		return out;
	}

	/** Lowercase base32hex of the bytes and zero bits up to a whole digit, unpadded. */
	static String base32hex(byte[] bytes)
	{
		int digits = (bytes.length * 8 + 4) / 5;
		char[] out = new char[digits];
		for (int i = 0; i < digits; i++)
			out[i] = BASE32HEX.charAt(bits(bytes, 5 * i));
		return new String(out);
	}

	/** The 5 bits of the bytes from bit `at` (from the most significant), zeros past the end. */
	private static int bits(byte[] bytes, int at)
	{
		int v = 0;
		for (int b = at; b < at + 5; b++)
		{
			int bit = b / 8 < bytes.length ? (bytes[b / 8] >> (7 - b % 8)) & 1 : 0;
			v = (v << 1) | bit;
		}
		return v;
	}

	/**
	 * The `size` bytes of their base32hex text (lowercase only, unpadded), or null when the text is
	 * not that or its last digit carries bits past the bytes (the reference's strictness).
	 */
	static byte[] parseBase32hex(CharSequence text, int size)
	{
		int digits = (size * 8 + 4) / 5;
		if (text.length() != digits)
			return null;
		byte[] out = new byte[size];
		for (int i = 0; i < digits; i++)
		{
			int d = digit(BASE32HEX, text.charAt(i));
			if (d < 0)
				return null;
			for (int k = 0; k < 5; k++)
			{
				int b = 5 * i + k, bit = (d >> (4 - k)) & 1;
				if (b / 8 < size)
					out[b / 8] |= (byte) (bit << (7 - b % 8));
				else if (bit != 0)
					return null;
			}
		}
		return out;
	}

	/** The unsigned big-endian number of bytes[offset..offset+n-1] (n at most 7). */
	static long readUnsigned(byte[] bytes, int offset, int n)
	{
		long v = 0;
		for (int i = 0; i < n; i++)
			v = (v << 8) | (bytes[offset + i] & 0xFF);
		return v;
	}
}
