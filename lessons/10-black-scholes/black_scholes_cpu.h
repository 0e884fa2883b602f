#pragma once
// Given, not an exercise: the host side of lesson 10. The seed's formula on the CPU in any
// floating-point type (long double for the reference the grader and the demo compare with;
// double for the one-CPU-thread time), the exact normal distribution for the polynomial's own
// error, the seed's random options, and the seed's two error measures.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <random>
#include <vector>

#include "black_scholes.h"

// The seed's polynomial for the cumulative normal distribution, in Real.
template <typename Real>
Real cnd_polynomial(Real d) {
  const Real k = 1 / (1 + static_cast<Real>(kCndK) * std::fabs(d));
  const Real poly = k * (static_cast<Real>(kA1) +
                         k * (static_cast<Real>(kA2) +
                              k * (static_cast<Real>(kA3) + k * (static_cast<Real>(kA4) + k * static_cast<Real>(kA5)))));
  const Real tail = static_cast<Real>(kRsqrt2Pi) * std::exp(-d * d / 2) * poly;
  return d > 0 ? 1 - tail : tail;
}

// The exact cumulative normal distribution, from erfc (no cancellation for negative d).
inline long double cnd_exact(long double d) { return std::erfc(-d / std::sqrt(2.0L)) / 2; }

// One option's call and put, by the formula in black_scholes.h with the normal distribution `cnd`.
template <typename Real, typename Cnd>
void price_option(Real s, Real x, Real t, Real r, Real v, Cnd cnd, Real& call, Real& put) {
  const Real sqrt_t = std::sqrt(t);
  const Real d1 = (std::log(s / x) + (r + v * v / 2) * t) / (v * sqrt_t);
  const Real d2 = d1 - v * sqrt_t;
  const Real n1 = cnd(d1), n2 = cnd(d2);
  const Real discounted_strike = x * std::exp(-r * t);
  call = s * n1 - discounted_strike * n2;
  put = discounted_strike * (1 - n2) - s * (1 - n1);
}

// The options' inputs and prices, as host arrays.
template <typename Real>
struct Options {
  std::vector<Real> stock, strike, years;
  std::size_t size() const { return stock.size(); }
};

template <typename Real>
struct Prices {
  std::vector<Real> call, put;
};

// The prices of every option by the seed's polynomial in Real, on one CPU thread.
template <typename Real, typename Input>
Prices<Real> price_on_cpu(const Options<Input>& o, Market m) {
  Prices<Real> p{std::vector<Real>(o.size()), std::vector<Real>(o.size())};
  for (std::size_t i = 0; i < o.size(); ++i)
    price_option<Real>(o.stock[i], o.strike[i], o.years[i], static_cast<Real>(m.riskfree),
                       static_cast<Real>(m.volatility), cnd_polynomial<Real>, p.call[i], p.put[i]);
  return p;
}

// The reference: the seed's polynomial in long double (64 significant bits on x86, 53 where long
// double is double), rounded to double at the end. Input is float or double: the float kernel
// is compared with the exact prices of its own float inputs.
template <typename Input>
Prices<double> reference_prices(const Options<Input>& o, Market m) {
  const Prices<long double> exact = price_on_cpu<long double>(o, m);
  return {std::vector<double>(exact.call.begin(), exact.call.end()),
          std::vector<double>(exact.put.begin(), exact.put.end())};
}

// The prices with the exact normal distribution, in long double: what the polynomial approximates.
template <typename Input>
Prices<double> exact_cdf_prices(const Options<Input>& o, Market m) {
  Prices<double> p{std::vector<double>(o.size()), std::vector<double>(o.size())};
  for (std::size_t i = 0; i < o.size(); ++i) {
    long double call = 0, put = 0;
    price_option<long double>(o.stock[i], o.strike[i], o.years[i], m.riskfree, m.volatility, cnd_exact, call, put);
    p.call[i] = static_cast<double>(call);
    p.put[i] = static_cast<double>(put);
  }
  return p;
}

// The seed's random options: stock price in [5, 30], strike in [1, 100], years in [0.25, 10],
// each uniform, as NumPy's (1 - u) * low + u * high.
template <typename Real>
Options<Real> seed_options(std::size_t n, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> u(0.0, 1.0);
  auto draw = [&](double low, double high) {
    const double t = u(rng);
    return static_cast<Real>((1 - t) * low + t * high);
  };
  Options<Real> o;
  for (std::size_t i = 0; i < n; ++i) {
    o.stock.push_back(draw(5, 30));
    o.strike.push_back(draw(1, 100));
    o.years.push_back(draw(0.25, 10));
  }
  return o;
}

// The seed's two error measures of `got` against `ref`: the L1 norm sum|got - ref| / sum|ref|
// (an average relative error, weighted by size) and the largest absolute difference.
struct PriceErrors {
  double l1_norm = 0;
  double max_abs = 0;
};

template <typename Real>
PriceErrors price_errors(const std::vector<double>& ref, const std::vector<Real>& got) {
  long double sum_diff = 0, sum_ref = 0;
  PriceErrors e;
  for (std::size_t i = 0; i < ref.size() && i < got.size(); ++i) {
    const double diff = std::fabs(static_cast<double>(got[i]) - ref[i]);
    sum_diff += diff;
    sum_ref += std::fabs(ref[i]);
    e.max_abs = std::max(e.max_abs, diff);
  }
  e.l1_norm = sum_ref > 0 ? static_cast<double>(sum_diff / sum_ref) : static_cast<double>(sum_diff);
  return e;
}
