import type { CredentialField } from '../../machines/paymentSuccessMachine';
import { CopyField } from '../shared/CopyField';
import { PaymentSuccessActor } from './paymentSuccessActor';

interface CredentialRowProps {
  field: CredentialField;
  label: string;
  value: string;
}

/** One login credential with its copy button. */
export function CredentialRow({ field, label, value }: CredentialRowProps) {
  const actorRef = PaymentSuccessActor.useActorRef();
  return (
    <CopyField label={label} value={value} copyLabel={`Copy ${field}`} onCopy={() => actorRef.send({ type: 'COPY_CLICKED', field })} />
  );
}
