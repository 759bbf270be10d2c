-- Whether a kitchen's weekly hours (src/shared/opening-hours.ts: per weekday, ranges of "HH:MM" local times; a range
-- whose end is not after its start crosses midnight; null hours are the spec's 10:00–20:15 every day) hold an
-- instant, in the kitchen's time zone: the landing page's 'Open now' filter, paged on the server. The same rule as
-- isOpenAt (a test compares them on many instants and zones). Written by hand: drizzle-kit cannot express functions.
CREATE OR REPLACE FUNCTION hc_open_at(hours jsonb, tz text, instant timestamptz) RETURNS boolean
  LANGUAGE sql STABLE PARALLEL SAFE
  AS $$
    WITH local AS (
      SELECT (instant AT TIME ZONE tz) AS t,
             coalesce(hours, '{"sun":[["10:00","20:15"]],"mon":[["10:00","20:15"]],"tue":[["10:00","20:15"]],"wed":[["10:00","20:15"]],"thu":[["10:00","20:15"]],"fri":[["10:00","20:15"]],"sat":[["10:00","20:15"]]}'::jsonb) AS h
    ), now_parts AS (
      SELECT h,
             (ARRAY['sun','mon','tue','wed','thu','fri','sat'])[extract(dow FROM t)::int + 1] AS today,
             (ARRAY['sun','mon','tue','wed','thu','fri','sat'])[extract(dow FROM t - interval '1 day')::int + 1] AS yesterday,
             extract(hour FROM t)::int * 60 + extract(minute FROM t)::int AS m
      FROM local
    )
    SELECT EXISTS (
      SELECT 1 FROM now_parts, jsonb_array_elements(h -> today) r,
        LATERAL (SELECT substr(r->>0, 1, 2)::int * 60 + substr(r->>0, 4, 2)::int AS s,
                        substr(r->>1, 1, 2)::int * 60 + substr(r->>1, 4, 2)::int AS e) x
      WHERE CASE WHEN x.e > x.s THEN m >= x.s AND m < x.e ELSE m >= x.s END
    ) OR EXISTS (
      SELECT 1 FROM now_parts, jsonb_array_elements(h -> yesterday) r,
        LATERAL (SELECT substr(r->>0, 1, 2)::int * 60 + substr(r->>0, 4, 2)::int AS s,
                        substr(r->>1, 1, 2)::int * 60 + substr(r->>1, 4, 2)::int AS e) x
      WHERE x.e <= x.s AND m < x.e
    )
  $$;
