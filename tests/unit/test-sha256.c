/*
 * test-sha256.c - SHA-256 against the examples of FIPS 180-4 (one block,
 * two blocks, a million bytes) and the lengths around a block's padding.
 */
#include "base/sha256.h"

#include <stdlib.h>
#include <string.h>

#include "tests/tap.h"

#define check(p, len, want, ...) do {					\
	char	got_[65];						\
									\
	sha256_hex((p), (len), got_);					\
	is_str(got_, (want), __VA_ARGS__);				\
} while (0)

int
main(void)
{
	static const struct {
		size_t		 len;
		const char	*want;
	} lengths[] = {		/* around the padding's edges */
		{ 55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e91"
		    "0f734318" },
		{ 56, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef797068"
		    "6ec6738a" },
		{ 63, "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da45"
		    "7ddc2f34" },
		{ 65, "635361c48bb9eab14198e76ea8ab7f1a41685d6ad62aa9146d301d4f"
		    "17eb0ae0" },
		{ 119, "31eba51c313a5c08226adf18d4a359cfdfd8d2e816b13f4af952f7e"
		    "a6584dcfb" },
		{ 120, "2f3d335432c70b580af0e8e1b3674a7c020d683aa5f73aaaedfdc55"
		    "af904c21c" },
	};
	char	*m;
	size_t	 n;

	check("", 0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b"
	    "7852b855", "the empty string");
	check("abc", 3, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff"
	    "61f20015ad", "abc (one block)");
	check("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 56,
	    "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
	    "56 bytes (the padding takes a second block)");
	m = malloc(1000000);
	memset(m, 'a', 1000000);
	check(m, 1000000, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d"
	    "39ccc7112cd0", "a million a's");
	for (n = 0; n < sizeof lengths / sizeof lengths[0]; n++)
		check(m, lengths[n].len, lengths[n].want, "%zu a's",
		    lengths[n].len);
	check(m, 64, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df"
	    "154668eb", "64 a's (a whole block, padding alone in the next)");
	free(m);
	return tap_done();
}
