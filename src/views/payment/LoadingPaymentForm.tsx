import styled from 'styled-components';

/** What the payment area shows until a payment form can take the card (spec §2: 'Loading payment form...'). */
export function LoadingPaymentForm() {
  return <Text role="status">Loading payment form...</Text>;
}

const Text = styled.p`
  padding: 24px 0;
  text-align: center;
  color: #64748b;
`;
