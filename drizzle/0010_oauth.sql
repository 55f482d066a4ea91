CREATE TABLE "oauth_clients" (
	"id" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"redirect_uris" text[] NOT NULL,
	"auth_method" text NOT NULL,
	"secret_hash" text,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "oauth_codes" (
	"hash" text PRIMARY KEY NOT NULL,
	"grant_id" uuid NOT NULL,
	"redirect_uri" text NOT NULL,
	"code_challenge" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "oauth_grants" (
	"id" uuid PRIMARY KEY NOT NULL,
	"client_id" text NOT NULL,
	"user_id" uuid NOT NULL,
	"org_id" uuid NOT NULL,
	"resource" text NOT NULL,
	"scope" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "oauth_tokens" (
	"hash" text PRIMARY KEY NOT NULL,
	"grant_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "key_rates" DROP CONSTRAINT "key_rates_key_id_api_keys_id_fk";
--> statement-breakpoint
ALTER TABLE "oauth_codes" ADD CONSTRAINT "oauth_codes_grant_id_oauth_grants_id_fk" FOREIGN KEY ("grant_id") REFERENCES "public"."oauth_grants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth_grants" ADD CONSTRAINT "oauth_grants_client_id_oauth_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."oauth_clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth_grants" ADD CONSTRAINT "oauth_grants_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth_grants" ADD CONSTRAINT "oauth_grants_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth_tokens" ADD CONSTRAINT "oauth_tokens_grant_id_oauth_grants_id_fk" FOREIGN KEY ("grant_id") REFERENCES "public"."oauth_grants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "oauth_grants_user_client_idx" ON "oauth_grants" USING btree ("user_id","client_id");--> statement-breakpoint
CREATE INDEX "oauth_grants_org_idx" ON "oauth_grants" USING btree ("org_id");--> statement-breakpoint
CREATE INDEX "oauth_tokens_grant_idx" ON "oauth_tokens" USING btree ("grant_id");--> statement-breakpoint
-- OAuth 2.1 (docs/design.md, "OAuth"): the service is its own authorization server. Clients,
-- grants, codes and tokens are readable only by the functions below, which set cairn.oauth for
-- their statement. Codes and tokens are stored as SHA-256 hashes; an access token's hash covers
-- the resource it was issued for, so a token presented to another resource matches nothing.
-- Protocol outcomes that must persist (a replayed code or refresh token revokes its grant) are
-- returned as {error, error_description}, not raised, so the revocation is not rolled back.
CREATE FUNCTION cairn_oauth() RETURNS boolean LANGUAGE sql STABLE AS $$
  SELECT coalesce(current_setting('cairn.oauth', true), '') = 'on'
$$;
--> statement-breakpoint
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'cairn_app') THEN
    EXECUTE 'GRANT SELECT, INSERT, UPDATE, DELETE ON oauth_clients, oauth_grants, oauth_codes, oauth_tokens TO cairn_app';
  END IF;
END $$;
--> statement-breakpoint
ALTER TABLE oauth_clients ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE oauth_clients FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY oauth_clients_oauth ON oauth_clients USING (cairn_oauth());
--> statement-breakpoint
ALTER TABLE oauth_grants ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE oauth_grants FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY oauth_grants_oauth ON oauth_grants USING (cairn_oauth());
--> statement-breakpoint
ALTER TABLE oauth_codes ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE oauth_codes FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY oauth_codes_oauth ON oauth_codes USING (cairn_oauth());
--> statement-breakpoint
ALTER TABLE oauth_tokens ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE oauth_tokens FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY oauth_tokens_oauth ON oauth_tokens USING (cairn_oauth());
--> statement-breakpoint
CREATE FUNCTION cairn_oauth_client_json(c oauth_clients) RETURNS jsonb LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object('id', c.id, 'kind', c.kind, 'name', c.name, 'redirect_uris', to_jsonb(c.redirect_uris),
    'auth_method', c.auth_method, 'secret_hash', c.secret_hash, 'metadata', c.metadata,
    'created_at', c.created_at, 'expires_at', c.expires_at)
$$;
--> statement-breakpoint
CREATE FUNCTION cairn_oauth_client_get(p_id text) RETURNS jsonb LANGUAGE plpgsql AS $$
BEGIN
  PERFORM set_config('cairn.oauth', 'on', true);
  RETURN (SELECT cairn_oauth_client_json(c) FROM oauth_clients c WHERE c.id = p_id);
END $$;
--> statement-breakpoint
-- Registers a client, or refreshes the cached metadata document of one (p: the row as JSON).
CREATE FUNCTION cairn_oauth_client_put(p jsonb) RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  v_c oauth_clients;
BEGIN
  PERFORM set_config('cairn.oauth', 'on', true);
  INSERT INTO oauth_clients (id, kind, name, redirect_uris, auth_method, secret_hash, metadata, expires_at)
    VALUES (p->>'id', p->>'kind', p->>'name', ARRAY(SELECT jsonb_array_elements_text(p->'redirect_uris')),
      p->>'auth_method', p->>'secret_hash', coalesce(p->'metadata', '{}'::jsonb), (p->>'expires_at')::timestamptz)
    ON CONFLICT (id) DO UPDATE SET name = excluded.name, redirect_uris = excluded.redirect_uris,
      auth_method = excluded.auth_method, metadata = excluded.metadata, expires_at = excluded.expires_at
      WHERE oauth_clients.kind = 'metadata_document'
    RETURNING * INTO v_c;
  RETURN cairn_oauth_client_json(v_c);
END $$;
--> statement-breakpoint
-- The signed-in user's standing consent for a client at a resource, if any: {grant_id, org_id}.
CREATE FUNCTION cairn_oauth_consent(p_session_hash text, p_client_id text, p_resource text) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  v_user uuid;
BEGIN
  PERFORM set_config('cairn.dashboard', 'on', true);
  PERFORM set_config('cairn.oauth', 'on', true);
  SELECT user_id INTO v_user FROM sessions WHERE token_hash = p_session_hash AND expires_at > now();
  RETURN (SELECT jsonb_build_object('grant_id', g.id, 'org_id', g.org_id) FROM oauth_grants g
    WHERE g.user_id = v_user AND g.client_id = p_client_id AND g.resource = p_resource AND g.revoked_at IS NULL
      AND EXISTS (SELECT 1 FROM memberships m WHERE m.user_id = g.user_id AND m.org_id = g.org_id)
    ORDER BY g.created_at DESC LIMIT 1);
END $$;
--> statement-breakpoint
-- The signed-in user lets a client use an org: the standing grant for (user, client, resource,
-- org) or a new one, and a single-use code for it.
CREATE FUNCTION cairn_oauth_approve(p_session_hash text, p_client_id text, p_org uuid, p_resource text,
  p_scope text, p_code_hash text, p_redirect_uri text, p_challenge text, p_seconds int) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  v_user uuid;
  v_grant uuid;
BEGIN
  PERFORM set_config('cairn.dashboard', 'on', true);
  PERFORM set_config('cairn.oauth', 'on', true);
  SELECT user_id INTO v_user FROM sessions WHERE token_hash = p_session_hash AND expires_at > now();
  IF v_user IS NULL THEN
    RAISE EXCEPTION 'sign in first' USING ERRCODE = 'CN401';
  END IF;
  IF NOT EXISTS (SELECT 1 FROM memberships WHERE user_id = v_user AND org_id = p_org) THEN
    RAISE EXCEPTION 'org: not one of your orgs' USING ERRCODE = 'CN403';
  END IF;
  SELECT id INTO v_grant FROM oauth_grants WHERE user_id = v_user AND client_id = p_client_id
    AND resource = p_resource AND org_id = p_org AND revoked_at IS NULL;
  IF v_grant IS NULL THEN
    v_grant := gen_random_uuid();
    INSERT INTO oauth_grants (id, client_id, user_id, org_id, resource, scope)
      VALUES (v_grant, p_client_id, v_user, p_org, p_resource, p_scope);
  END IF;
  INSERT INTO oauth_codes (hash, grant_id, redirect_uri, code_challenge, expires_at)
    VALUES (p_code_hash, v_grant, p_redirect_uri, p_challenge, now() + make_interval(secs => p_seconds));
  -- a spent or expired code is kept an hour, to know a replay when it comes
  DELETE FROM oauth_codes WHERE grant_id = v_grant AND expires_at < now() - interval '1 hour';
  RETURN jsonb_build_object('grant_id', v_grant);
END $$;
--> statement-breakpoint
-- Issues an access and a refresh token for a grant (the access token's hash covers its resource).
CREATE FUNCTION cairn_oauth_issue(p_grant oauth_grants, p_access_hash text, p_refresh_hash text,
  p_access_seconds int, p_refresh_seconds int) RETURNS jsonb LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO oauth_tokens (hash, grant_id, kind, expires_at) VALUES
    (p_access_hash, p_grant.id, 'access', now() + make_interval(secs => p_access_seconds)),
    (p_refresh_hash, p_grant.id, 'refresh', now() + make_interval(secs => p_refresh_seconds));
  -- expired tokens of the grant go as new ones come
  DELETE FROM oauth_tokens WHERE grant_id = p_grant.id AND expires_at < now();
  RETURN jsonb_build_object('scope', p_grant.scope, 'client_id', p_grant.client_id);
END $$;
--> statement-breakpoint
CREATE FUNCTION cairn_oauth_error(p_error text, p_description text) RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$
  SELECT jsonb_build_object('error', p_error, 'error_description', p_description)
$$;
--> statement-breakpoint
-- grant_type=authorization_code: consumes the code once (a second use revokes its grant), checks
-- client, redirect URI, PKCE (p_challenge: S256 of the verifier) and resource, issues tokens.
CREATE FUNCTION cairn_oauth_exchange(p_code_hash text, p_client_id text, p_redirect_uri text, p_challenge text,
  p_resource text, p_access_hash text, p_refresh_hash text, p_access_seconds int, p_refresh_seconds int)
RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  v_c oauth_codes;
  v_g oauth_grants;
BEGIN
  PERFORM set_config('cairn.oauth', 'on', true);
  UPDATE oauth_codes SET used_at = now() WHERE hash = p_code_hash AND used_at IS NULL RETURNING * INTO v_c;
  IF v_c.hash IS NULL THEN
    SELECT * INTO v_c FROM oauth_codes WHERE hash = p_code_hash;
    IF v_c.hash IS NOT NULL THEN
      UPDATE oauth_grants SET revoked_at = now() WHERE id = v_c.grant_id AND revoked_at IS NULL;
      RETURN cairn_oauth_error('invalid_grant', 'the code was used already; the tokens issued for it are revoked');
    END IF;
    RETURN cairn_oauth_error('invalid_grant', 'unknown code');
  END IF;
  SELECT * INTO v_g FROM oauth_grants WHERE id = v_c.grant_id;
  IF v_c.expires_at <= now() THEN
    RETURN cairn_oauth_error('invalid_grant', 'the code has expired; authorize again');
  ELSIF v_g.client_id <> p_client_id THEN
    RETURN cairn_oauth_error('invalid_grant', 'the code was issued to another client');
  ELSIF v_c.redirect_uri <> p_redirect_uri THEN
    RETURN cairn_oauth_error('invalid_grant', 'redirect_uri differs from the one the code was issued for');
  ELSIF v_c.code_challenge <> p_challenge THEN
    RETURN cairn_oauth_error('invalid_grant', 'code_verifier does not match the code_challenge');
  ELSIF v_g.resource <> p_resource THEN
    RETURN cairn_oauth_error('invalid_target', 'the code was issued for another resource');
  ELSIF v_g.revoked_at IS NOT NULL THEN
    RETURN cairn_oauth_error('invalid_grant', 'the grant was revoked');
  END IF;
  RETURN cairn_oauth_issue(v_g, p_access_hash, p_refresh_hash, p_access_seconds, p_refresh_seconds);
END $$;
--> statement-breakpoint
-- grant_type=refresh_token: rotates; a refresh token presented twice revokes its grant.
CREATE FUNCTION cairn_oauth_refresh(p_refresh_hash text, p_client_id text, p_resource text, p_access_hash text,
  p_new_refresh_hash text, p_access_seconds int, p_refresh_seconds int) RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  v_t oauth_tokens;
  v_g oauth_grants;
BEGIN
  PERFORM set_config('cairn.oauth', 'on', true);
  UPDATE oauth_tokens SET used_at = now()
    WHERE hash = p_refresh_hash AND kind = 'refresh' AND used_at IS NULL RETURNING * INTO v_t;
  IF v_t.hash IS NULL THEN
    SELECT * INTO v_t FROM oauth_tokens WHERE hash = p_refresh_hash AND kind = 'refresh';
    IF v_t.hash IS NOT NULL THEN
      UPDATE oauth_grants SET revoked_at = now() WHERE id = v_t.grant_id AND revoked_at IS NULL;
      RETURN cairn_oauth_error('invalid_grant', 'the refresh token was used already; the grant is revoked, authorize again');
    END IF;
    RETURN cairn_oauth_error('invalid_grant', 'unknown refresh token');
  END IF;
  SELECT * INTO v_g FROM oauth_grants WHERE id = v_t.grant_id;
  IF v_t.expires_at <= now() THEN
    RETURN cairn_oauth_error('invalid_grant', 'the refresh token has expired; authorize again');
  ELSIF v_g.client_id <> p_client_id THEN
    RETURN cairn_oauth_error('invalid_grant', 'the refresh token was issued to another client');
  ELSIF v_g.resource <> p_resource THEN
    RETURN cairn_oauth_error('invalid_target', 'the refresh token was issued for another resource');
  ELSIF v_g.revoked_at IS NOT NULL THEN
    RETURN cairn_oauth_error('invalid_grant', 'the grant was revoked; authorize again');
  END IF;
  RETURN cairn_oauth_issue(v_g, p_access_hash, p_new_refresh_hash, p_access_seconds, p_refresh_seconds);
END $$;
--> statement-breakpoint
-- RFC 7009: an access token goes alone; a refresh token takes its grant with it. Unknown: nothing.
CREATE FUNCTION cairn_oauth_revoke(p_access_hash text, p_refresh_hash text, p_client_id text) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM set_config('cairn.oauth', 'on', true);
  DELETE FROM oauth_tokens t USING oauth_grants g
    WHERE t.hash = p_access_hash AND t.kind = 'access' AND g.id = t.grant_id AND g.client_id = p_client_id;
  UPDATE oauth_grants g SET revoked_at = now() FROM oauth_tokens t
    WHERE t.hash = p_refresh_hash AND t.kind = 'refresh' AND g.id = t.grant_id AND g.client_id = p_client_id
      AND g.revoked_at IS NULL;
END $$;
--> statement-breakpoint
-- The credential a hash names, as in 0008, or else an OAuth access token: its grant stands for the
-- key (the rate limit's key, the org, the last use). A grant whose user has left the org, or that
-- was revoked, or a token past its time, authenticates nothing.
CREATE OR REPLACE FUNCTION cairn_credential(p_key_hash text, OUT p_key uuid, OUT p_org uuid) LANGUAGE plpgsql AS $$
DECLARE
  v_last timestamptz;
BEGIN
  PERFORM set_config('cairn.key_hash', coalesce(p_key_hash, ''), true);
  SELECT k.id, k.org_id, k.last_used_at INTO p_key, p_org, v_last
    FROM api_keys k WHERE k.hash = p_key_hash AND k.revoked_at IS NULL;
  IF p_key IS NOT NULL AND (v_last IS NULL OR v_last < now() - interval '1 minute') THEN
    UPDATE api_keys SET last_used_at = now() WHERE id = p_key;
  END IF;
  PERFORM set_config('cairn.key_hash', '', true);
  IF p_key IS NOT NULL THEN
    RETURN;
  END IF;
  PERFORM set_config('cairn.oauth', 'on', true);
  PERFORM set_config('cairn.dashboard', 'on', true);
  SELECT g.id, g.org_id, g.last_used_at INTO p_key, p_org, v_last
    FROM oauth_tokens t JOIN oauth_grants g ON g.id = t.grant_id
    WHERE t.hash = p_key_hash AND t.kind = 'access' AND t.expires_at > now() AND g.revoked_at IS NULL
      AND EXISTS (SELECT 1 FROM memberships m WHERE m.user_id = g.user_id AND m.org_id = g.org_id);
  IF p_key IS NOT NULL AND (v_last IS NULL OR v_last < now() - interval '1 minute') THEN
    UPDATE oauth_grants SET last_used_at = now() WHERE id = p_key;
  END IF;
  PERFORM set_config('cairn.oauth', '', true);
  PERFORM set_config('cairn.dashboard', '', true);
END $$;
--> statement-breakpoint
-- Settings, connected apps: the org's OAuth grants, and revoking one (its tokens stop at once).
CREATE FUNCTION cairn_dash_grants(p_token_hash text) RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  a record := cairn_dash_actor(p_token_hash);
BEGIN
  PERFORM set_config('cairn.oauth', 'on', true);
  RETURN (SELECT coalesce(jsonb_agg(jsonb_build_object('id', g.id, 'client_id', g.client_id, 'client_name', c.name,
      'user', u.email, 'scope', g.scope, 'created_at', g.created_at, 'last_used_at', g.last_used_at,
      'revoked_at', g.revoked_at) ORDER BY g.created_at DESC), '[]'::jsonb)
    FROM oauth_grants g JOIN oauth_clients c ON c.id = g.client_id JOIN users u ON u.id = g.user_id
    WHERE g.org_id = a.org_id);
END $$;
--> statement-breakpoint
CREATE FUNCTION cairn_dash_grant_revoke(p_token_hash text, p_grant uuid) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  a record := cairn_dash_actor(p_token_hash);
BEGIN
  PERFORM set_config('cairn.oauth', 'on', true);
  UPDATE oauth_grants SET revoked_at = coalesce(revoked_at, now()) WHERE id = p_grant AND org_id = a.org_id;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'no such connected app in this org' USING ERRCODE = 'CN404';
  END IF;
  DELETE FROM oauth_tokens WHERE grant_id = p_grant;
END $$;
