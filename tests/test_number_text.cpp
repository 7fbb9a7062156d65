// Numbers as text: one grammar for every precision, read correctly rounded
// (or exactly), printed so that they read back to the same value.
#include <gtest/gtest.h>

#include <cfloat>

#include "femc/scalar/builtin.hpp"
#include "femc/scalar/float128.hpp"
#include "femc/scalar/mpfr.hpp"
#include "femc/scalar/number_text.hpp"
#include "femc/scalar/qd.hpp"
#include "femc/scalar/rational.hpp"
#include "femc/scalar/visit_precision.hpp"

namespace femc {
namespace {

TEST(NumberText, GrammarRejectsWhatIsNotADecimalOrRatio) {
  for (const char* bad : {"", "abc", "1e", "e5", ".", "-", "+", "nan", "inf", "-inf", "1/0", "1/", "/2", "0x1p3",
                          " 1", "1 ", "1.2.3", "1e5.0", "--1", "1/2/3", "1/-2", "١"})
    EXPECT_THROW(check_number_syntax(bad), NumberError) << "'" << bad << "'";
  for (const char* good : {"0", "-0", "+1", "1.", ".5", "1.5e-3", "2E+10", "-7/3", "10/4", "000123.4500"})
    EXPECT_NO_THROW(check_number_syntax(good)) << good;
}

TEST(NumberText, ExponentBeyondTheLimitIsRejectedNotAllocated) {
  EXPECT_THROW(check_number_syntax("1e1000000000000"), NumberError);
  EXPECT_THROW(ScalarTraits<rational>::parse("1e-999999"), NumberError);
  EXPECT_EQ(ScalarTraits<rational>::parse("0e999999999"), rational(0));  // zero has no magnitude
}

TEST(NumberText, DecimalsAreReadExactlyAsRationals) {
  EXPECT_EQ(ScalarTraits<rational>::parse("0.1"), rational(1) / 10);
  EXPECT_EQ(ScalarTraits<rational>::parse("-1.25e2"), rational(-125));
  EXPECT_EQ(ScalarTraits<rational>::parse("10/4"), rational(5) / 2);
  EXPECT_EQ(ScalarTraits<rational>::format(rational(5) / 2), "5/2");
}

TEST(NumberText, DoubleIsCorrectlyRounded) {
  EXPECT_EQ(ScalarTraits<double>::parse("0.1"), 0.1);
  EXPECT_EQ(ScalarTraits<double>::parse("1/3"), 1.0 / 3.0);  // one correctly rounded division
  EXPECT_EQ(ScalarTraits<double>::parse("4.9e-324"), 4.9e-324);  // subnormal
  EXPECT_THROW(ScalarTraits<double>::parse("1e400"), NumberError);
}

TEST(NumberText, MpfrReadsAtTheWorkingPrecisionNotThroughDouble) {
  MpfrPrecision p(256);
  mpfr_real x = ScalarTraits<mpfr_real>::parse("0.1");
  mpfr_real ref(0, 256);
  mpfr_set_str(ref.mpfr_ptr(), "0.1", 10, MPFR_RNDN);
  EXPECT_EQ(x, ref);
  EXPECT_NE(x, mpfr_real(0.1));  // the double 0.1 differs from 1/10 at 256 bits
  EXPECT_EQ(x.get_prec(), 256);
  EXPECT_NO_THROW(ScalarTraits<mpfr_real>::parse("1e400"));  // MPFR's exponent range is wide
  EXPECT_EQ(ScalarTraits<mpfr_real>::name(), "mpfr-256");
}

TEST(NumberText, Float128ReadsAtItsPrecision) {
  float128 x = ScalarTraits<float128>::parse("0.1");
  EXPECT_NE(x, float128(0.1));
  EXPECT_EQ(x * 10, float128(1));  // 1/10 rounded to 113 bits times 10 rounds to 1
}

template <class S>
void expect_roundtrip(const S& x) {
  EXPECT_EQ(ScalarTraits<S>::parse(ScalarTraits<S>::format(x)), x) << ScalarTraits<S>::format(x);
}

// At every type of the precision table (scalar/precisions.hpp), MPFR at
// several bits; and each type names itself as the table spells it.
TEST(NumberText, FormatReadsBackToTheSameValue) {
  const auto at = [](auto tag, const std::string& spelling) {
    using S = typename decltype(tag)::type;
    for (const char* t : {"0.1", "1/3", "-2.5e-300", "6.02214076e23", "1e-310"}) {
      if constexpr (std::is_same_v<S, mpfr_real>) {
        for (long bits : {53L, 113L, 256L, 1000L}) {
          MpfrPrecision p(bits);
          expect_roundtrip(ScalarTraits<S>::parse(t));
          EXPECT_EQ(ScalarTraits<S>::name(), "mpfr-" + std::to_string(bits));
        }
      } else {
        expect_roundtrip(ScalarTraits<S>::parse(t));
        EXPECT_EQ(ScalarTraits<S>::name(), spelling);
      }
    }
  };
#define FEMC_ROUNDTRIP_AT(Type, tag, header, spelling, kind, models, bits, what) at(PrecisionTag<Type>{}, spelling);
  FEMC_PRECISIONS(FEMC_ROUNDTRIP_AT)
#undef FEMC_ROUNDTRIP_AT
}

TEST(NumberText, DoubleDoubleAndQuadDoubleHoldMoreThanADouble) {
  double_double x = ScalarTraits<double_double>::parse("0.1");
  EXPECT_NE(x.x[1], 0.0);  // the tail carries the bits of 1/10 beyond the double
  EXPECT_EQ(x.x[0], 0.1);
  quad_double y = ScalarTraits<quad_double>::parse("1/3");
  EXPECT_NE(y.x[3], 0.0);
  EXPECT_THROW(ScalarTraits<double_double>::parse("1e400"), NumberError);
}

TEST(NumberText, PrecisionOutOfRangeIsRejected) {
  EXPECT_THROW(MpfrPrecision(8), NumberError);
  EXPECT_THROW(MpfrPrecision(1L << 20), NumberError);
}

}  // namespace
}  // namespace femc
