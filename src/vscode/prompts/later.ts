// A server's forms and links during a call (elicitation), and a remote server's sign-in page (the
// link prompt's rules): loaded when the first one is asked (dist/forms.js, via lazy/forms.ts).
export { vscodeElicitor } from './elicitationPrompt';
export { askToSignIn } from './linkPrompt';
