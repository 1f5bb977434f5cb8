import * as crypto from 'node:crypto';
import forge from 'node-forge';
import { BundleError, loadMcpb } from './bundleErrors';

/** What a bundle's signature proves, checked here (a fact, unlike the manifest's claims). */
export type BundleSignature =
  | { readonly kind: 'unsigned' }
  | {
      readonly kind: 'signed';
      /** The signing certificate's subject (CN): who signed, as the certificate says. */
      readonly publisher: string;
      readonly issuer: string;
      /** The certificate chains to an authority this machine trusts for code signing. */
      readonly trusted: boolean;
      readonly selfSigned: boolean;
      /** SHA-256 of the signing certificate, hex. */
      readonly fingerprint: string;
    };

/**
 * The archive of a bundle file and what its signature proves. A bundle without a signature block
 * is unsigned; one whose block cannot be read, whose content digest differs (bytes changed after
 * signing), or whose signature does not verify with its certificate is refused: a BundleError.
 *
 * The package finds the signature block (`extractSignatureBlock`) and asks the OS trust store about
 * the certificate (`verifyCertificateChain`); its own `verifyMcpbFile` cannot be used, because the
 * PKCS#7 library it calls does not implement verification and so reports every signed file as
 * unsigned. The digest and the signature over the signed attributes are checked here instead.
 */
export async function checkSignature(file: Buffer): Promise<{ readonly content: Buffer; readonly signature: BundleSignature }> {
  const mcpb = await loadMcpb();
  const { originalContent, pkcs7Signature } = mcpb.extractSignatureBlock(file);
  if (!pkcs7Signature) return { content: originalContent, signature: { kind: 'unsigned' } };
  const signed = readSignedData(pkcs7Signature);
  const digest = crypto.createHash('sha256').update(originalContent).digest();
  if (!signed.messageDigest.equals(digest)) {
    throw new BundleError('The bundle was changed after it was signed: its content does not match its signature.');
  }
  const x509 = new crypto.X509Certificate(forge.pki.certificateToPem(signed.certificate));
  if (!crypto.verify('sha256', signed.signedAttributes, x509.publicKey, signed.signatureValue)) {
    throw new BundleError('The bundle\'s signature does not verify with its own certificate: it was forged or damaged.');
  }
  const intermediates = signed.others.map((c) => Buffer.from(forge.pki.certificateToPem(c)));
  const trusted = await mcpb.verifyCertificateChain(Buffer.from(x509.toString()), intermediates);
  const cn = (name: forge.pki.Certificate['subject']) => String(name.getField('CN')?.value ?? 'unknown');
  return {
    content: originalContent,
    signature: {
      kind: 'signed',
      publisher: cn(signed.certificate.subject),
      issuer: cn(signed.certificate.issuer),
      trusted,
      selfSigned: x509.checkIssued(x509) && x509.verify(x509.publicKey),
      fingerprint: x509.fingerprint256.replace(/:/g, '').toLowerCase(),
    },
  };
}

/** The parts of the detached PKCS#7 SignedData a check needs. */
interface SignedData {
  readonly certificate: forge.pki.Certificate;
  readonly others: readonly forge.pki.Certificate[];
  /** DER of the signed attributes as a SET OF: the bytes the signature covers. */
  readonly signedAttributes: Buffer;
  readonly messageDigest: Buffer;
  readonly signatureValue: Buffer;
}

function readSignedData(der: Buffer): SignedData {
  const unreadable = (why: string) => new BundleError(`The bundle's signature block cannot be read (${why}).`);
  let message: forge.pkcs7.PkcsSignedData;
  try {
    message = forge.pkcs7.messageFromAsn1(forge.asn1.fromDer(forge.util.createBuffer(der.toString('binary')))) as forge.pkcs7.PkcsSignedData;
  } catch (err) {
    throw unreadable(err instanceof Error ? err.message : String(err));
  }
  // node-forge keeps the SignerInfo structures only as parsed ASN.1 (its typings omit rawCapture).
  const signerInfos = (message as unknown as { rawCapture?: { signerInfos?: forge.asn1.Asn1[] } }).rawCapture?.signerInfos ?? [];
  if (signerInfos.length !== 1) throw unreadable(`${signerInfos.length} signers, not one`);
  const fields = children(signerInfos[0]);
  const serial = children(fields[1])[1];
  const digestAlgorithm = children(fields[2])[0];
  const attributes = fields.find((f) => f.tagClass === forge.asn1.Class.CONTEXT_SPECIFIC && f.type === 0);
  const signatureValue = fields.find((f) => f.tagClass === forge.asn1.Class.UNIVERSAL && f.type === forge.asn1.Type.OCTETSTRING);
  if (!serial || !digestAlgorithm || !attributes || !signatureValue) throw unreadable('a SignerInfo without its serial, digest algorithm, signed attributes or signature');
  if (forge.asn1.derToOid(bytes(digestAlgorithm)) !== forge.pki.oids.sha256) throw unreadable('its digest is not SHA-256');
  const serialHex = forge.util.bytesToHex(bytes(serial)).replace(/^(00)+(?=.)/, '');
  const certificates = message.certificates ?? [];
  const certificate = certificates.find((c) => c.serialNumber.replace(/^(00)+(?=.)/, '') === serialHex);
  if (!certificate) throw unreadable('the signer\'s certificate is missing');
  const digestAttribute = children(attributes).find((a) => forge.asn1.derToOid(bytes(children(a)[0])) === forge.pki.oids.messageDigest);
  const digestValue = digestAttribute && children(children(digestAttribute)[1])[0];
  if (!digestValue) throw unreadable('no message digest among the signed attributes');
  const set = forge.asn1.create(forge.asn1.Class.UNIVERSAL, forge.asn1.Type.SET, true, children(attributes));
  return {
    certificate,
    others: certificates.filter((c) => c !== certificate),
    signedAttributes: Buffer.from(forge.asn1.toDer(set).getBytes(), 'binary'),
    messageDigest: Buffer.from(bytes(digestValue), 'binary'),
    signatureValue: Buffer.from(bytes(signatureValue), 'binary'),
  };
}

function children(node: forge.asn1.Asn1 | undefined): forge.asn1.Asn1[] {
  return node && Array.isArray(node.value) ? node.value : [];
}

function bytes(node: forge.asn1.Asn1 | undefined): string {
  return node && typeof node.value === 'string' ? node.value : '';
}
