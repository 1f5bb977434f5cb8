// Sign Out of Server, loaded at first use (dist/forms.js, via lazy/forms.ts).
export { signOut } from './signOutCommand';
