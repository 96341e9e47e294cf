import type { CheckMethod, CheckResult } from '../../../report/define-check.ts'

/** Short constructors for check results. */
export const present = (evidence: string, method: CheckMethod = 'state'): CheckResult => ({ status: 'present', method, evidence })
export const absent = (evidence: string, method: CheckMethod = 'state'): CheckResult => ({ status: 'absent', method, evidence })
export const undetermined = (evidence: string): CheckResult => ({ status: 'undetermined', method: 'not determinable', evidence })
