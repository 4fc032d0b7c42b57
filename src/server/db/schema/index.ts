// The one place drizzle-kit and the db client read the whole schema from.
export * from './auth';
export * from './account';
export * from './infra';
export * from './profile';
export * from './templates';
export * from './orders';
export * from './designs';
export * from './site';
export * from './reviews';
export * from './admin';
export * from './engagement';
export * from './team';
export * from './production';
export * from './webhooks';
export * from './developer';
export * from './settings';
