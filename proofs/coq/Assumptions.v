(* ========================================================================= *)
(* femc -- axiom audit.  For every main theorem, print a marker line and     *)
(* the output of [Print Assumptions].  check.sh requires each block to read  *)
(* exactly "Closed under the global context" (no axioms, no Admitted).       *)
(* ========================================================================= *)

From mathcomp Require Import all_ssreflect all_algebra.
From Femc Require Import MxRing MoorePenrose Gauss.

Goal True. idtac "==> pinv_unique". exact I. Abort.
Print Assumptions pinv_unique.
Goal True. idtac "==> pinvP". exact I. Abort.
Print Assumptions pinvP.
Goal True. idtac "==> pinv_exists". exact I. Abort.
Print Assumptions pinv_exists.
Goal True. idtac "==> E3a_consistency". exact I. Abort.
Print Assumptions E3a_consistency.
Goal True. idtac "==> E3b_null_pinv". exact I. Abort.
Print Assumptions E3b_null_pinv.
Goal True. idtac "==> E3b_null_pinv_tr". exact I. Abort.
Print Assumptions E3b_null_pinv_tr.
Goal True. idtac "==> E3c_compl_orth". exact I. Abort.
Print Assumptions E3c_compl_orth.
Goal True. idtac "==> E3d_general_solution". exact I. Abort.
Print Assumptions E3d_general_solution.
Goal True. idtac "==> G7_lemma1". exact I. Abort.
Print Assumptions G7_lemma1.
Goal True. idtac "==> G5_eq30". exact I. Abort.
Print Assumptions G5_eq30.
Goal True. idtac "==> G5_E2_global_min_s". exact I. Abort.
Print Assumptions G5_E2_global_min_s.
Goal True. idtac "==> U1_equation". exact I. Abort.
Print Assumptions U1_equation.
Goal True. idtac "==> E1_constraint_satisfied". exact I. Abort.
Print Assumptions E1_constraint_satisfied.
Goal True. idtac "==> E2_global_min_decomposition". exact I. Abort.
Print Assumptions E2_global_min_decomposition.
Goal True. idtac "==> E2_U5_gauss_principle". exact I. Abort.
Print Assumptions E2_U5_gauss_principle.
Goal True. idtac "==> U2_virtual_work". exact I. Abort.
Print Assumptions U2_virtual_work.
Goal True. idtac "==> U3_orthogonal". exact I. Abort.
Print Assumptions U3_orthogonal.
Goal True. idtac "==> U4_QW_cases". exact I. Abort.
Print Assumptions U4_QW_cases.
Goal True. idtac "==> E4_constraint_force". exact I. Abort.
Print Assumptions E4_constraint_force.
Goal True. idtac "==> E5_lagrange_witness". exact I. Abort.
Print Assumptions E5_lagrange_witness.
Goal True. idtac "==> E5_lagrange_exists". exact I. Abort.
Print Assumptions E5_lagrange_exists.
Goal True. idtac "==> E5_lagrange_general". exact I. Abort.
Print Assumptions E5_lagrange_general.
Goal True. idtac "==> E5_lagrange_unique". exact I. Abort.
Print Assumptions E5_lagrange_unique.
Goal True. idtac "==> G1_first_form". exact I. Abort.
Print Assumptions G1_first_form.
Goal True. idtac "==> G2_formula". exact I. Abort.
Print Assumptions G2_formula.
Goal True. idtac "==> G2_result1". exact I. Abort.
Print Assumptions G2_result1.
Goal True. idtac "==> G3_residual". exact I. Abort.
Print Assumptions G3_residual.
Goal True. idtac "==> G3_ZW". exact I. Abort.
Print Assumptions G3_ZW.
Goal True. idtac "==> G3_min_value". exact I. Abort.
Print Assumptions G3_min_value.
Goal True. idtac "==> G3_consistency". exact I. Abort.
Print Assumptions G3_consistency.
Goal True. idtac "==> G4_singleton". exact I. Abort.
Print Assumptions G4_singleton.
Goal True. idtac "==> G5_global_min_z". exact I. Abort.
Print Assumptions G5_global_min_z.
Goal True. idtac "==> G5_min_value". exact I. Abort.
Print Assumptions G5_min_value.
Goal True. idtac "==> G6_eq37". exact I. Abort.
Print Assumptions G6_eq37.
Goal True. idtac "==> G6_eq39". exact I. Abort.
Print Assumptions G6_eq39.
Goal True. idtac "==> G7_weighted". exact I. Abort.
Print Assumptions G7_weighted.
Goal True. idtac "==> G9_pinv_eq45". exact I. Abort.
Print Assumptions G9_pinv_eq45.
Goal True. idtac "==> G9_W_independent". exact I. Abort.
Print Assumptions G9_W_independent.
Goal True. idtac "==> G9_result2". exact I. Abort.
Print Assumptions G9_result2.
Goal True. idtac "==> G9_two_weights". exact I. Abort.
Print Assumptions G9_two_weights.
Goal True. idtac "==> G9_consistent_W_independent". exact I. Abort.
Print Assumptions G9_consistent_W_independent.
Goal True. idtac "==> G11_virtual_displacement". exact I. Abort.
Print Assumptions G11_virtual_displacement.
Goal True. idtac "==> G12_W_identity". exact I. Abort.
Print Assumptions G12_W_identity.
