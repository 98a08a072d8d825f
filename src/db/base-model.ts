import { Model } from 'objection';

/** The common base of the models; column names are mapped to camelCase by the Knex instance (database.ts). */
export class BaseModel extends Model {}
