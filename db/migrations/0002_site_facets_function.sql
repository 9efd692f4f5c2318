-- The filterable facts of a site (category, inventory, signals, tags) as tsvector lexemes, so that every search filter is a condition
-- of one GIN index and a bitmap of it holds exactly the matching sites. Lexemes contain "=", which
-- no word of a search query can: a query word never matches a facet.
-- The audit-only buckets (other, spam) mirror AUDIT_ONLY_CATEGORIES in src/domain/sites/site-fields.ts.
CREATE FUNCTION site_facets(
	category text,
	tags text[],
	has_llms_txt boolean,
	has_ai_plugin boolean,
	has_openapi boolean,
	has_structured_api boolean,
	has_mcp_server boolean,
	has_robots_ai boolean,
	has_schema_org boolean
) RETURNS tsvector
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
	SELECT array_to_tsvector(
		ARRAY[
			'category=' || category,
			CASE WHEN category IN ('other', 'spam') THEN 'inventory=audit' ELSE 'inventory=discovery' END,
			'has_llms_txt=' || CASE WHEN has_llms_txt THEN '1' ELSE '0' END,
			'has_ai_plugin=' || CASE WHEN has_ai_plugin THEN '1' ELSE '0' END,
			'has_openapi=' || CASE WHEN has_openapi THEN '1' ELSE '0' END,
			'has_structured_api=' || CASE WHEN has_structured_api THEN '1' ELSE '0' END,
			'has_mcp_server=' || CASE WHEN has_mcp_server THEN '1' ELSE '0' END,
			'has_robots_ai=' || CASE WHEN has_robots_ai THEN '1' ELSE '0' END,
			'has_schema_org=' || CASE WHEN has_schema_org THEN '1' ELSE '0' END
		] || ARRAY(SELECT 'tag=' || tag FROM unnest(tags) AS tag)
	)
$$;
