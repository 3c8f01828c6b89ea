export * from './navigation';
export * from './session';
export * from './problem';
export * from './users';
export * from './agreements';
export * from './origination';
export * from './requests';
export * from './fields';
