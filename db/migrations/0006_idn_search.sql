-- Internationalised domains (docs/discovery.md, "Matching"). The index keys a site by its ASCII
-- host name, so a Unicode label is stored in punycode ("münchen" as "xn--mnchen-3ya"), and the
-- search vector held only that spelling's pieces: "münchen" found nothing. Each punycode label
-- is now also indexed in its Unicode form, decoded here in the database so that every writer and
-- this backfill agree; q needs no conversion (its Unicode words meet those lexemes, and its
-- punycode spelling still meets the ASCII pieces).

-- RFC 3492 decoding of the part of a label after "xn--": its Unicode text, or NULL when it is not
-- valid punycode (such a label is indexed by its ASCII spelling alone; a write never fails on it).
-- Postgres has no IDNA functions; test/protocol/search-index.test.ts checks this against the
-- URL parser's IDNA on a corpus of labels.
CREATE FUNCTION search_punycode_decode(encoded text) RETURNS text
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
DECLARE
	base CONSTANT bigint := 36;
	tmin CONSTANT bigint := 1;
	tmax CONSTANT bigint := 26;
	skew CONSTANT bigint := 38;
	damp CONSTANT bigint := 700;
	-- RFC 3492's overflow bound: no valid label comes near it.
	limit_value CONSTANT bigint := 2147483647;
	size int := length(encoded);
	from_end int := strpos(reverse(encoded), '-');
	-- The basic (ASCII) code points come before the last hyphen, if there is one.
	basic_length int := CASE WHEN from_end > 0 THEN size - from_end ELSE 0 END;
	points int[] := '{}';
	n bigint := 128;
	i bigint := 0;
	bias bigint := 72;
	-- Deltas follow that hyphen; without basic code points they start at once (so a leading
	-- hyphen is read as a digit, and refused, as punycode.js and the URL parser do).
	next_char int := CASE WHEN basic_length > 0 THEN basic_length + 2 ELSE 1 END;
	old_i bigint;
	weight bigint;
	k bigint;
	threshold bigint;
	digit bigint;
	code int;
	delta bigint;
	point_count int;
BEGIN
	FOR basic_at IN 1 .. basic_length LOOP
		points := points || ascii(substr(encoded, basic_at, 1));
	END LOOP;
	WHILE next_char <= size LOOP
		old_i := i;
		weight := 1;
		k := base;
		LOOP
			IF next_char > size THEN RETURN NULL; END IF;
			code := ascii(substr(encoded, next_char, 1));
			next_char := next_char + 1;
			digit := CASE
				WHEN code BETWEEN 97 AND 122 THEN code - 97
				WHEN code BETWEEN 65 AND 90 THEN code - 65
				WHEN code BETWEEN 48 AND 57 THEN code - 22
			END;
			IF digit IS NULL THEN RETURN NULL; END IF;
			i := i + digit * weight;
			IF i > limit_value THEN RETURN NULL; END IF;
			threshold := CASE WHEN k <= bias THEN tmin WHEN k >= bias + tmax THEN tmax ELSE k - bias END;
			EXIT WHEN digit < threshold;
			weight := weight * (base - threshold);
			IF weight > limit_value THEN RETURN NULL; END IF;
			k := k + base;
		END LOOP;
		point_count := cardinality(points) + 1;
		-- The bias adaptation of RFC 3492 section 6.1.
		delta := CASE WHEN old_i = 0 THEN (i - old_i) / damp ELSE (i - old_i) / 2 END;
		delta := delta + delta / point_count;
		k := 0;
		WHILE delta > ((base - tmin) * tmax) / 2 LOOP
			delta := delta / (base - tmin);
			k := k + base;
		END LOOP;
		bias := k + ((base - tmin + 1) * delta) / (delta + skew);
		n := n + i / point_count;
		i := i % point_count;
		-- Not a Unicode scalar value: chr() would refuse it.
		IF n > 1114111 OR n BETWEEN 55296 AND 57343 THEN RETURN NULL; END IF;
		points := points[1:i] || n::int || points[i + 1:];
		i := i + 1;
	END LOOP;
	IF cardinality(points) = 0 THEN RETURN NULL; END IF;
	RETURN (SELECT string_agg(chr(point), '' ORDER BY at) FROM unnest(points) WITH ORDINALITY AS p(point, at));
END
$$;--> statement-breakpoint

-- The words of a domain for the search vector: its labels split at dots, hyphens and underscores,
-- followed by the Unicode form of each punycode label, split alike.
CREATE FUNCTION search_domain_words(domain text) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$
	SELECT translate(CASE
		WHEN domain NOT LIKE '%xn--%' THEN domain
		ELSE domain || coalesce(' ' || (
			SELECT string_agg(search_punycode_decode(substr(label, 5)), ' ')
			FROM unnest(string_to_array(domain, '.')) AS label
			WHERE label LIKE 'xn--%'
		), '')
	END, '.-_', '   ')
$$;--> statement-breakpoint

-- The postings of the sites whose vector changes go first, found by their current terms as the
-- trigger finds them: rebuilding the column below fires no trigger.
DELETE FROM search_postings AS p
USING sites AS s
WHERE s.domain ~ '(^|\.)xn--'
	AND p.audit = search_is_audit(s.category)
	AND p.term = ANY (search_terms(s.search_vector, s.tags, s.category,
		search_signal_bits(s.has_structured_api, s.has_mcp_server, s.has_openapi, s.has_llms_txt)))
	AND p.agentic_score = s.agentic_score
	AND p.organic_tiebreak = s.organic_tiebreak
	AND p.domain = s.domain;--> statement-breakpoint

-- Postgres 15 cannot change a generated column's expression: the column is rebuilt.
ALTER TABLE "sites" DROP COLUMN "search_vector";--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "search_vector" "tsvector" GENERATED ALWAYS AS (strip(to_tsvector('english'::regconfig, name || ' ' || description) || to_tsvector('simple'::regconfig, search_domain_words(domain)))) STORED NOT NULL;--> statement-breakpoint

INSERT INTO search_postings
SELECT p.* FROM sites, LATERAL search_postings_of(sites) AS p
WHERE sites.domain ~ '(^|\.)xn--';
