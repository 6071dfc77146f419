import { colors } from '../theme';

/** The money-back guarantee seal (spec §1), an inline image. */
export function GuaranteeSeal({ size = 120 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 120 120" role="img" aria-label="Money-back guarantee">
      <title>Money-back guarantee</title>
      <g fill={colors.accent}>
        {Array.from({ length: 24 }, (_, index) => (
          <circle key={index} cx={60 + 54 * Math.cos((index * Math.PI) / 12)} cy={60 + 54 * Math.sin((index * Math.PI) / 12)} r="6" />
        ))}
      </g>
      <circle cx="60" cy="60" r="52" fill={colors.accent} />
      <circle cx="60" cy="60" r="44" fill="none" stroke="#fff" strokeWidth="2" strokeDasharray="3 3" />
      <text x="60" y="46" textAnchor="middle" fill="#fff" fontSize="11" fontWeight="700" fontFamily="system-ui, sans-serif">
        MONEY-BACK
      </text>
      <text x="60" y="68" textAnchor="middle" fill="#fff" fontSize="20" fontWeight="800" fontFamily="system-ui, sans-serif">
        100%
      </text>
      <text x="60" y="84" textAnchor="middle" fill="#fff" fontSize="10" fontWeight="700" fontFamily="system-ui, sans-serif">
        GUARANTEE
      </text>
    </svg>
  );
}
