// The page /open and /login answer with: keeps the session token it carries and goes on to the app.
import { keepSession } from './session.js';

const meta = /** @type {HTMLMetaElement} */ (document.querySelector('meta[name="shelf-session"]'));
keepSession(meta.content);
location.replace(meta.dataset.next || '/');
