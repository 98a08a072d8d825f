import type { components } from '../../../generated/api.js';
import type { OwnerRow } from './models.js';

export function presentOwner(owner: OwnerRow): components['schemas']['Owner'] {
  return { id: owner.id, email: owner.email, name: owner.name, createdAt: owner.createdAt.toISOString() };
}
