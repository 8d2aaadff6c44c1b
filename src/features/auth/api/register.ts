import * as operations from '@/domain/contract/auth.ts';
import type { RegisterBody } from '@/domain/contract/auth.ts';
import { call } from '@/lib/api-client.ts';

export function register(body: RegisterBody) {
  return call(operations.register, { body });
}
