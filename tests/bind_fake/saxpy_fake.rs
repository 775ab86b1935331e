// The generated saxpy crate against the fake runtime (tests/test_bind_behaviour.py copies this
// into the crate's tests/ and links the launcher built with g++ against tests/bind_fake/).
use saxpy::{saxpy, saxpy_config, Check, DeviceBuffer, Error, LaunchConfig};
use std::ffi::CStr;
use std::os::raw::{c_char, c_int, c_void};
use std::sync::atomic::{AtomicI32, AtomicU32, AtomicUsize, Ordering};
use std::sync::Mutex;

#[repr(C)]
#[derive(Clone, Copy)]
struct FakeDim3 {
    x: u32,
    y: u32,
    z: u32,
}

type Hook = extern "C" fn(*const c_void, FakeDim3, FakeDim3, usize, *mut *mut c_void);

extern "C" {
    fn fake_reset();
    fn fake_fail_next_sync(code: c_int);
    fn fake_log() -> *const c_char;
    fn fake_free_count(ptr: *const c_void) -> c_int;
    fn fake_live_allocations() -> c_int;
    fn fake_on_launch(hook: Option<Hook>);
}

// The fake runtime is one global state: tests take turns.
static LOCK: Mutex<()> = Mutex::new(());
static SEEN_N: AtomicI32 = AtomicI32::new(-1);
static SEEN_A: AtomicU32 = AtomicU32::new(0);
static SEEN_X: AtomicUsize = AtomicUsize::new(0);
static SEEN_GRID: AtomicU32 = AtomicU32::new(0);

extern "C" fn record(_f: *const c_void, grid: FakeDim3, _b: FakeDim3, _s: usize, args: *mut *mut c_void) {
    unsafe {
        SEEN_N.store(*(*args.add(0) as *const i32), Ordering::SeqCst);
        SEEN_A.store((*(*args.add(1) as *const f32)).to_bits(), Ordering::SeqCst);
        SEEN_X.store(*(*args.add(2) as *const usize), Ordering::SeqCst);
    }
    SEEN_GRID.store(grid.x, Ordering::SeqCst);
}

fn log() -> String {
    unsafe { CStr::from_ptr(fake_log()) }.to_string_lossy().into_owned()
}

fn fresh() -> std::sync::MutexGuard<'static, ()> {
    let guard = LOCK.lock().unwrap_or_else(|e| e.into_inner());
    unsafe { fake_reset() };
    guard
}

#[test]
fn a_launch_passes_the_buffers_and_scalars_in_order() {
    let _g = fresh();
    unsafe { fake_on_launch(Some(record)) };
    let x = DeviceBuffer::from_slice(&vec![1.0f32; 1000]).unwrap();
    let mut y = DeviceBuffer::<f32>::zeroed(1000).unwrap();
    saxpy(&LaunchConfig::new(), &x, &mut y, 2.5).unwrap();
    assert_eq!(SEEN_N.load(Ordering::SeqCst), 1000); // n is x.len()
    assert_eq!(f32::from_bits(SEEN_A.load(Ordering::SeqCst)), 2.5);
    assert_eq!(SEEN_X.load(Ordering::SeqCst), x.as_ptr() as usize);
    assert_eq!(SEEN_GRID.load(Ordering::SeqCst), 4); // min(ceil_div(1000, 256), 256)
    assert_eq!(saxpy_config(1000, 2.5).get_workgroups(), Some([4, 1, 1]));
    assert!(log().ends_with("GetLastError,LaunchKernel,GetLastError,DeviceSynchronize"), "{}", log());
}

#[test]
fn a_bad_geometry_returns_the_launch_error() {
    let _g = fresh();
    let x = DeviceBuffer::from_slice(&[1.0f32; 64]).unwrap();
    let mut y = DeviceBuffer::from_slice(&[0.0f32; 64]).unwrap();
    let cfg = LaunchConfig::new().threads_per_workgroup([2048, 1, 1]).workgroups([1, 1, 1]);
    match saxpy(&cfg, &x, &mut y, 2.5) {
        Err(Error::Runtime { check: Check::Launch, code: 9, message, .. }) => {
            assert_eq!(message, "invalid configuration argument")
        }
        other => panic!("expected the launch error, got {other:?}"),
    }
    assert!(!log().contains("DeviceSynchronize"), "{}", log());
    saxpy(&LaunchConfig::new(), &x, &mut y, 2.5).expect("the launch error is reported once");
}

#[test]
fn a_fault_in_the_kernel_is_reported_by_the_sync_check() {
    let _g = fresh();
    let x = DeviceBuffer::from_slice(&[1.0f32; 64]).unwrap();
    let mut y = DeviceBuffer::from_slice(&[0.0f32; 64]).unwrap();
    unsafe { fake_fail_next_sync(700) };
    match saxpy(&LaunchConfig::new(), &x, &mut y, 2.5) {
        Err(Error::Runtime { check: Check::Sync, code: 700, .. }) => {}
        other => panic!("expected the sync error, got {other:?}"),
    }
}

#[test]
fn lengths_are_checked_before_launching() {
    let _g = fresh();
    let x = DeviceBuffer::from_slice(&[1.0f32; 64]).unwrap();
    let mut y = DeviceBuffer::<f32>::zeroed(63).unwrap();
    match saxpy(&LaunchConfig::new(), &x, &mut y, 2.5) {
        Err(Error::Length { buffer: "y", required: 64, actual: 63, .. }) => {}
        other => panic!("expected a length error, got {other:?}"),
    }
    assert!(!log().contains("LaunchKernel"), "{}", log());
}

#[test]
fn a_device_buffer_is_freed_exactly_once() {
    let _g = fresh();
    let a = DeviceBuffer::<f32>::zeroed(16).unwrap();
    let pa = a.as_ptr() as *const c_void;
    let moved = a; // a move is not a copy: still one owner
    let b = DeviceBuffer::from_slice(&[1u32, 2, 3]).unwrap();
    let pb = b.as_ptr() as *const c_void;
    let kept = vec![b];
    assert_eq!(unsafe { fake_live_allocations() }, 2);
    drop(moved);
    assert_eq!(unsafe { fake_free_count(pa) }, 1);
    assert_eq!(kept[0].to_vec().unwrap(), vec![1, 2, 3]);
    drop(kept);
    assert_eq!(unsafe { fake_free_count(pb) }, 1);
    assert_eq!(unsafe { fake_live_allocations() }, 0);
    let empty = DeviceBuffer::<f32>::zeroed(0).unwrap(); // no allocation, nothing to free
    drop(empty);
    assert_eq!(log().matches("Free").count(), 2, "{}", log());
}
