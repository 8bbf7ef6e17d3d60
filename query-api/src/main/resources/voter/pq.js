// The voter page's ML-DSA-44 verification (FIPS 204; C2SP tlog-cosignature subtree/v1), issue 68:
// @noble/post-quantum's pure ML-DSA-44 with an empty context, the form the log and the witnesses sign
// with (Bouncy Castle's MLDSASigner). The module and those it imports come from this origin
// (/voter/vendor/..., fetched from npm by the build; decision 147); voter.js calls mlDsa44Verify when
// it is there and says so when it is not.
import { ml_dsa44 } from './vendor/noble-post-quantum/package/ml-dsa.js';

window.mlDsa44Verify = (signature, message, publicKey) => ml_dsa44.verify(signature, message, publicKey);
