import type { Db } from '../../../src/db/database.js';

/**
 * Until `undo()`: the message store refuses messages whose text starts with "refuse", as a database that fails
 * some writes would: handling a platform's webhook that carries one fails.
 */
export async function storeRefuses(db: Db): Promise<{ undo: () => Promise<void> }> {
  await db.raw(`CREATE OR REPLACE FUNCTION refuse_messages() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN IF NEW.text LIKE 'refuse%' THEN RAISE EXCEPTION 'the store refused "%"', NEW.text; END IF; RETURN NEW; END $$`);
  await db.raw('CREATE TRIGGER refuse_messages BEFORE INSERT ON messages FOR EACH ROW EXECUTE FUNCTION refuse_messages()');
  return { undo: async () => void (await db.raw('DROP TRIGGER refuse_messages ON messages')) };
}
