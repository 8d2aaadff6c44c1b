export * from './fields.ts';
export * from './auth.ts';
export * from './me.ts';
export * from './organizations.ts';
export * from './projects.ts';
export * from './users.ts';
export * from './customers.ts';
export * from './uploads.ts';
