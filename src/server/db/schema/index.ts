// The one place drizzle-kit and the db client read the whole schema from.
export * from './users';
export * from './profiles';
export * from './templates';
export * from './orders';
export * from './site';
export * from './analytics';
export * from './teams';
export * from './production';
export * from './webhooks';
export * from './developer';
