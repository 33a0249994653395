//! Nillable elements (XML Schema Part 1 §2.6.2 `xsi:nil`, §3.3.1 {nillable}): [`Nillable`] for an
//! element that is always present, [`OptionalNillable`] for one that may also be absent
//! (`minOccurs="0" nillable="true"`, as .NET publishes nearly every element).

/// A nillable element that is present (XML Schema Part 1 §2.6.2): nil (written `xsi:nil="true"`)
/// or a value. For an element that may also be absent, see [`OptionalNillable`].
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub enum Nillable<T> {
    /// The element is present with `xsi:nil="true"` and no content.
    #[default]
    Nil,
    /// The element is present with a value.
    Value(T),
}

impl<T> Nillable<T> {
    /// The value, if not nil.
    pub fn value(&self) -> Option<&T> {
        match self {
            Nillable::Nil => None,
            Nillable::Value(v) => Some(v),
        }
    }

    /// Converts into an `Option`, `Nil` becoming `None`.
    pub fn into_option(self) -> Option<T> {
        match self {
            Nillable::Nil => None,
            Nillable::Value(v) => Some(v),
        }
    }

    /// Maps the value, keeping `Nil`.
    pub fn map<U>(self, f: impl FnOnce(T) -> U) -> Nillable<U> {
        match self {
            Nillable::Nil => Nillable::Nil,
            Nillable::Value(v) => Nillable::Value(f(v)),
        }
    }

    /// Whether this is `Nil`.
    pub fn is_nil(&self) -> bool {
        matches!(self, Nillable::Nil)
    }
}

impl<T> From<T> for Nillable<T> {
    fn from(v: T) -> Self {
        Nillable::Value(v)
    }
}

/// A string value (`"text".into()`).
impl From<&str> for Nillable<String> {
    fn from(v: &str) -> Self {
        Nillable::Value(v.to_owned())
    }
}

/// An element that is optional and nillable (XML Schema Part 1 §3.9.1 `minOccurs="0"` with §3.3.1
/// {nillable} true): absent, present with `xsi:nil="true"`, or present with a value — three states
/// in one type, the default being absent.
///
/// On the wire it is what `Option<Nillable<T>>` is (which the derives also accept): [`Absent`]
/// writes nothing, [`Nil`] an empty element with `xsi:nil="true"` (§2.6.2), [`Value`] the element.
/// Reading gives back the state that was sent.
///
/// [`Absent`]: OptionalNillable::Absent
/// [`Nil`]: OptionalNillable::Nil
/// [`Value`]: OptionalNillable::Value
///
/// # Examples
///
/// ```
/// use soapgen_runtime::OptionalNillable;
///
/// let id: OptionalNillable<String> = "400001".into();
/// assert_eq!(id.value().map(String::as_str), Some("400001"));
///
/// let none: OptionalNillable<i32> = None.into();
/// assert!(none.is_absent());
/// assert_eq!(OptionalNillable::<i32>::default(), OptionalNillable::Absent);
///
/// match OptionalNillable::<i32>::Nil {
///     OptionalNillable::Absent => println!("not sent"),
///     OptionalNillable::Nil => println!("sent as xsi:nil"),
///     OptionalNillable::Value(v) => println!("{v}"),
/// }
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub enum OptionalNillable<T> {
    /// The element is not there.
    #[default]
    Absent,
    /// The element is present with `xsi:nil="true"` and no content.
    Nil,
    /// The element is present with a value.
    Value(T),
}

impl<T> OptionalNillable<T> {
    /// Whether the element is absent.
    pub const fn is_absent(&self) -> bool {
        matches!(self, OptionalNillable::Absent)
    }

    /// Whether the element is present and nil.
    pub const fn is_nil(&self) -> bool {
        matches!(self, OptionalNillable::Nil)
    }

    /// Whether the element is present with a value.
    pub const fn is_value(&self) -> bool {
        matches!(self, OptionalNillable::Value(_))
    }

    /// Whether the element is present, nil or with a value (it is written).
    pub const fn is_present(&self) -> bool {
        !self.is_absent()
    }

    /// The value, if there is one.
    pub const fn value(&self) -> Option<&T> {
        match self {
            OptionalNillable::Value(v) => Some(v),
            _ => None,
        }
    }

    /// The value, mutably, if there is one.
    pub fn value_mut(&mut self) -> Option<&mut T> {
        match self {
            OptionalNillable::Value(v) => Some(v),
            _ => None,
        }
    }

    /// Converts into an `Option` of the value, `Absent` and `Nil` both becoming `None`.
    pub fn into_option(self) -> Option<T> {
        match self {
            OptionalNillable::Value(v) => Some(v),
            _ => None,
        }
    }

    /// From the two-level form, `None` being `Absent`. (Not a `From` impl, so that `None.into()`
    /// stays unambiguous.)
    pub fn from_nillable(v: Option<Nillable<T>>) -> Self {
        match v {
            None => OptionalNillable::Absent,
            Some(Nillable::Nil) => OptionalNillable::Nil,
            Some(Nillable::Value(v)) => OptionalNillable::Value(v),
        }
    }

    /// Converts into the two-level form, `None` for `Absent`.
    pub fn into_nillable(self) -> Option<Nillable<T>> {
        match self {
            OptionalNillable::Absent => None,
            OptionalNillable::Nil => Some(Nillable::Nil),
            OptionalNillable::Value(v) => Some(Nillable::Value(v)),
        }
    }

    /// A reference to the value, keeping the state.
    pub const fn as_ref(&self) -> OptionalNillable<&T> {
        match self {
            OptionalNillable::Absent => OptionalNillable::Absent,
            OptionalNillable::Nil => OptionalNillable::Nil,
            OptionalNillable::Value(v) => OptionalNillable::Value(v),
        }
    }

    /// A mutable reference to the value, keeping the state.
    pub fn as_mut(&mut self) -> OptionalNillable<&mut T> {
        match self {
            OptionalNillable::Absent => OptionalNillable::Absent,
            OptionalNillable::Nil => OptionalNillable::Nil,
            OptionalNillable::Value(v) => OptionalNillable::Value(v),
        }
    }

    /// The value dereferenced (`&str` for a `String`), keeping the state.
    pub fn as_deref(&self) -> OptionalNillable<&T::Target>
    where
        T: std::ops::Deref,
    {
        self.as_ref().map(|v| &**v)
    }

    /// Maps the value, keeping `Absent` and `Nil`.
    pub fn map<U>(self, f: impl FnOnce(T) -> U) -> OptionalNillable<U> {
        match self {
            OptionalNillable::Absent => OptionalNillable::Absent,
            OptionalNillable::Nil => OptionalNillable::Nil,
            OptionalNillable::Value(v) => OptionalNillable::Value(f(v)),
        }
    }

    /// The value, or `default` when absent or nil.
    pub fn value_or(self, default: T) -> T {
        self.into_option().unwrap_or(default)
    }

    /// Takes the state out, leaving `Absent`.
    pub fn take(&mut self) -> Self {
        std::mem::take(self)
    }
}

/// A value (`Value(v)`).
impl<T> From<T> for OptionalNillable<T> {
    fn from(v: T) -> Self {
        OptionalNillable::Value(v)
    }
}

/// A string value (`"text".into()`).
impl From<&str> for OptionalNillable<String> {
    fn from(v: &str) -> Self {
        OptionalNillable::Value(v.to_owned())
    }
}

/// `None` is absent, `Some(v)` a value.
impl<T> From<Option<T>> for OptionalNillable<T> {
    fn from(v: Option<T>) -> Self {
        match v {
            None => OptionalNillable::Absent,
            Some(v) => OptionalNillable::Value(v),
        }
    }
}

/// A present element, nil or with a value.
impl<T> From<Nillable<T>> for OptionalNillable<T> {
    fn from(v: Nillable<T>) -> Self {
        match v {
            Nillable::Nil => OptionalNillable::Nil,
            Nillable::Value(v) => OptionalNillable::Value(v),
        }
    }
}

/// The two-level form: `Absent` is `None`.
impl<T> From<OptionalNillable<T>> for Option<Nillable<T>> {
    fn from(v: OptionalNillable<T>) -> Self {
        v.into_nillable()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conversions_keep_the_three_states() {
        assert_eq!(OptionalNillable::from(5), OptionalNillable::Value(5));
        assert_eq!(
            OptionalNillable::<i32>::from(None),
            OptionalNillable::Absent
        );
        assert_eq!(OptionalNillable::from(Some(5)), OptionalNillable::Value(5));
        assert_eq!(
            OptionalNillable::<i32>::from(Nillable::Nil),
            OptionalNillable::Nil
        );
        assert_eq!(
            OptionalNillable::<i32>::from_nillable(Some(Nillable::Nil)),
            OptionalNillable::Nil
        );
        assert_eq!(
            OptionalNillable::from("x"),
            OptionalNillable::Value("x".to_owned())
        );
        for v in [
            OptionalNillable::Absent,
            OptionalNillable::Nil,
            OptionalNillable::Value(1),
        ] {
            assert_eq!(OptionalNillable::from_nillable(v.into_nillable()), v);
        }
        let s = OptionalNillable::Value("a".to_owned());
        assert_eq!(s.as_deref(), OptionalNillable::Value("a"));
        assert_eq!(s.clone().value_or("b".into()), "a");
        assert_eq!(OptionalNillable::Nil.value_or(3), 3);
        let mut t = OptionalNillable::Value(2);
        if let Some(v) = t.value_mut() {
            *v += 1;
        }
        assert_eq!(t.take(), OptionalNillable::Value(3));
        assert!(t.is_absent() && !t.is_present());
    }
}
