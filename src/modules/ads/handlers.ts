// The ads area's operations, one folder per part (each adds its line here): the campaign tree, creatives, insights,
// targeting.
export * from './audiences/handlers.js';
export * from './boost/handlers.js';
export * from './bulk/handlers.js';
export * from './creatives/handlers.js';
export * from './darkposts/handlers.js';
export * from './insights/handlers.js';
export * from './pixels/handlers.js';
export * from './tree/handlers.js';
