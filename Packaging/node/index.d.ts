/** Options of startSiwa(). */
export interface SiwaOptions {
  /** A data folder (default: a new temporary folder, removed by close()). */
  dataDir?: string;
  /** An environment file for `siwa serve --config`. */
  config?: string;
  /** The HTTP port (default: a free one). */
  port?: number;
  /** The relay's SMTP port (default: a free one; 0 turns the relay off). */
  smtpPort?: number;
  /** More `siwa serve` arguments, e.g. ['--issuer', 'apple']. */
  args?: string[];
  /** A siwa binary other than the bundled one (also SIWA_BINARY). */
  binary?: string;
  /** How long to wait for the discovery document (default 60 000). */
  timeoutMs?: number;
}

/** demo.json: what the first start made. */
export interface DemoFacts {
  server: string;
  issuer: string;
  team_id: string;
  key_id: string;
  key_file: string;
  bundle_id: string;
  services_id: string;
  return_urls: string[];
  users: Array<{ apple_id: string; password: string; first_name: string; last_name: string; email: string; real_user_status: number; totp_secret?: string }>;
  admin_token: string;
  developer?: { email: string; password: string };
  organization?: unknown;
}

/** An authorization request, approved headlessly (POST /admin/authorizations). */
export interface AuthorizationOrder {
  appleID?: string;
  clientID?: string;
  redirectURI?: string;
  /** Default 'name email'; '' asks for no scope. */
  scope?: string;
  state?: string;
  nonce?: string;
  /** Default 'code id_token'. */
  responseType?: string;
  responseMode?: string;
  codeChallenge?: string;
  codeChallengeMethod?: string;
  hideEmail?: boolean;
}

/** What the Return URL receives. */
export interface Authorization {
  params: Record<string, string>;
  code?: string;
  idToken?: string;
  state?: string;
  /** The name and e-mail Apple posts on the first authorization only. */
  user?: { name?: { firstName?: string; lastName?: string }; email?: string };
}

export interface MailSummary {
  id: string; direction: string; to: string; destination: string; relay_address: string; from: string;
  subject: string; received_at: string; size: number; delivery: string; attempts: number; last_error?: string;
}

export interface Siwa {
  url: string;
  adminToken: string;
  demo: DemoFacts;
  dataDir: string;
  issuer: string;
  authorizeURL: string;
  tokenURL: string;
  keysURL: string;
  /** Any admin API call (openapi.yaml): resolves to the JSON answer, null for 204. */
  admin(method: string, path: string, body?: unknown): Promise<any>;
  reset(): Promise<void>;
  close(): Promise<void>;
  privateKeyPEM(): string;
  clientSecret(options?: { clientID?: string; lifetime?: string; audience?: string }): Promise<string>;
  addReturnURL(url: string, clientID?: string): Promise<void>;
  authorize(order?: AuthorizationOrder): Promise<Authorization>;
  createAppleID(appleID: string, password?: string, fields?: Record<string, unknown>): Promise<unknown>;
  stopUsing(appleID: string, groupID?: string): Promise<void>;
  deleteAppleID(appleID: string): Promise<void>;
  mailbox(address?: string): Promise<MailSummary[]>;
  advanceClock(seconds: number): Promise<unknown>;
}

export declare function startSiwa(options?: SiwaOptions): Promise<Siwa>;
export declare function freePort(): Promise<number>;
export declare class AdminError extends Error {
  status: number;
  error: string;
  description: string;
}
