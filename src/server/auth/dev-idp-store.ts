/**
 * Where the development provider keeps its short-lived state (interactions, codes, grants): this process's
 * memory, which is all a development sign-in needs (oidc-provider's storage interface, implemented plainly).
 */
interface Entry {
  payload: Record<string, unknown>;
  expiresAt: number;
}

const stores = new Map<string, Map<string, Entry>>();

export class DevIdpStore {
  private readonly entries: Map<string, Entry>;

  constructor(name: string) {
    let entries = stores.get(name);
    if (!entries) stores.set(name, (entries = new Map()));
    this.entries = entries;
  }

  async upsert(id: string, payload: Record<string, unknown>, expiresIn: number): Promise<void> {
    if (this.entries.size > 10_000) {
      const now = Date.now();
      for (const [key, entry] of this.entries) if (entry.expiresAt < now) this.entries.delete(key);
    }
    this.entries.set(id, { payload, expiresAt: Date.now() + (expiresIn || 3600) * 1000 });
  }

  async find(id: string): Promise<Record<string, unknown> | undefined> {
    const entry = this.entries.get(id);
    if (!entry) return undefined;
    if (entry.expiresAt < Date.now()) {
      this.entries.delete(id);
      return undefined;
    }
    return entry.payload;
  }

  async findByUid(uid: string): Promise<Record<string, unknown> | undefined> {
    for (const [id, entry] of this.entries) if (entry.payload.uid === uid) return this.find(id);
    return undefined;
  }

  async findByUserCode(userCode: string): Promise<Record<string, unknown> | undefined> {
    for (const [id, entry] of this.entries) if (entry.payload.userCode === userCode) return this.find(id);
    return undefined;
  }

  async consume(id: string): Promise<void> {
    const entry = this.entries.get(id);
    if (entry) entry.payload.consumed = Math.floor(Date.now() / 1000);
  }

  async destroy(id: string): Promise<void> {
    this.entries.delete(id);
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    for (const [id, entry] of this.entries) if (entry.payload.grantId === grantId) this.entries.delete(id);
  }
}
